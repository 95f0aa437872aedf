"""The psychometric part on top of the core: word difficulty from a committee of segmenters.

CRF segmenters (``crf``; python-crfsuite, the ``committee`` extra, imported when a tagger is
trained), the committee (``committee``) and its difficulty file (``difficulty``), and the
balanced precision, recall and F weighted by difficulty (``balanced``). Uses only
``scoring.core``.
"""
