"""Fine-grained analysis on top of the core.

Word attributes (``attributes``), attribute buckets and their per-bucket scores (``buckets``),
the line bootstrap (``bootstrap``), self- and aided diagnosis and the track profile
(``diagnosis``), the segmentation-criterion discrepancy (``criterion``) and per-domain scores
(``domains``). Uses only ``scoring.core``; scipy and pyahocorasick are imported inside the
functions that need them.
"""
