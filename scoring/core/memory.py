"""Keeping freed memory for reuse, for processes that score many runs or large ones.

Scoring allocates a few arrays the size of the text and frees them at once. By default glibc
gives such memory back to the system and takes it again on the next run, paying a page fault for
every 4 KiB page each time; on virtual machines that costs more than the arithmetic (measured
here: 16 ms against 10 ms for one msr run). A process that scores (the command line, a Celery
worker, a benchmark) may ask glibc to keep up to a limit of freed memory instead. It is a choice
for the process, not the library: importing ``scoring`` changes nothing.
"""

from __future__ import annotations

import ctypes

_M_TRIM_THRESHOLD = -1
_M_TOP_PAD = -2
_M_MMAP_THRESHOLD = -3
_MMAP_THRESHOLD_MAX = 32 << 20  # glibc's ceiling on 64-bit systems


def keep_freed_memory(*, keep: int = 1 << 30, pad: int = 64 << 20) -> bool:
    """Ask glibc to keep up to ``keep`` bytes of freed memory and to grow the heap ``pad`` bytes at
    a time. Returns False where the C library is not glibc (nothing is changed then)."""
    try:
        # The process's own symbols, the C library's among them: ctypes.util.find_library("c")
        # would find the same library by running ldconfig, 70 ms here.
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return all(
        mallopt(option, value) == 1
        for option, value in (
            (_M_MMAP_THRESHOLD, _MMAP_THRESHOLD_MAX),
            (_M_TRIM_THRESHOLD, min(keep, 2**31 - 1)),
            (_M_TOP_PAD, pad),
        )
    )
