"""The core of the library: what scoring a run needs, and nothing more.

Reading and checking texts (``text``, ``validate``, ``errors``), the training dictionary
(``dictionary``, ``wordkeys``), segmentations as arrays (``segmentation``), the gold index
(``gold``), span scores (``score``, ``align``, ``result``), maximum matching (``maxmatch``),
confidence intervals and significance (``significance``), the ranked table (``table``), and two
helpers (``memory``, ``version``). Needs numpy only.
"""
