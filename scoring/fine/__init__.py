"""Fine-grained analysis on top of the core.

Word attributes (``attributes``), attribute buckets and their per-bucket scores (``buckets``),
the line bootstrap (``bootstrap``), self- and aided diagnosis and the track profile
(``diagnosis``), the segmentation-criterion discrepancy (``criterion``), per-domain scores
(``domains``) and the rank statistics they use (``ranks``: Spearman's ρ and Friedman's test, as
scipy.stats computes them). Uses only ``scoring.core``; scipy.special and pyahocorasick are
imported inside the functions that need them.
"""
