from typing import NamedTuple

from . import _arrays, _dpx


class Alignment(NamedTuple):
    """One pair's alignment. Positions are 0-based, begin inclusive, end exclusive: it covers
    query[query_begin:query_end] and target[target_begin:target_end]. Without traceback the begins
    are -1 for local alignments and the CIGAR is empty. CIGAR operations: '=' the letters agree,
    'X' they differ, 'I' a query letter against a gap, 'D' a target letter against a gap."""
    score: int
    query_begin: int
    query_end: int
    target_begin: int
    target_end: int
    cigar: str


# One search hit: `target` indexes the database list; the rest as in Alignment.
Hit = NamedTuple("Hit", [("target", int)] + list(Alignment.__annotations__.items()))
Hit.__doc__ = "One search hit: `target` indexes the database list; the rest as in Alignment."


_SCORING = """
    matrix: 'blosum45', 'blosum50', 'blosum62', 'blosum80', 'pam250' (NCBI values) or 'dna' (A, C,
        G, T score `match` against themselves and `mismatch` otherwise; N and unknown letters
        `mismatch` against everything). Letters are mapped case-insensitively; letters outside the
        matrix count as its wildcard (X for the protein matrices).
    gap_open, gap_extend: a gap of L letters costs gap_open + (L - 1) * gap_extend (dpx-align's and
        parasail's convention: open 11 / extend 1 charges 11 for one letter);
        0 <= gap_extend <= gap_open <= 8192.
    backend: 'auto' (CUDA when a device is usable), 'cuda' or 'cpu'; the same results on each."""


def sw_scores(queries, targets, matrix="blosum62", gap_open=11, gap_extend=1, backend="auto", match=2,
              mismatch=-3):
    """Smith-Waterman scores of every query against every target.

    queries, targets: lists of sequences (str or bytes), each up to 65,536 letters.
    """
    return _dpx.sw_scores(queries, targets, matrix, gap_open, gap_extend, backend, match, mismatch)


sw_scores.__doc__ += _SCORING + """

    Returns an int32 array (len(queries), len(targets)).
    """


def align(queries, targets, mode="sw", matrix="blosum62", gap_open=11, gap_extend=1, traceback=True,
          backend="auto", match=2, mismatch=-3):
    """Aligns queries[i] with targets[i] (pairwise).

    mode: 'sw' (local, Smith-Waterman), 'nw' (global, Needleman-Wunsch) or 'semiglobal' (the
        whole query against any part of the target).
    traceback: also the begins and the CIGAR."""
    return [Alignment._make(r) for r in
            _dpx.align(queries, targets, mode, matrix, gap_open, gap_extend, traceback, backend, match, mismatch)]


align.__doc__ += _SCORING + """

    Returns a list of Alignment records, one per pair.
    """


def search(queries, database, top=10, min_score=1, matrix="blosum62", gap_open=11, gap_extend=1,
           backend="auto", match=2, mismatch=-3):
    """dpx-align search: every query scored against every database sequence (Smith-Waterman); each
    query keeps its best `top` hits (0: all) scoring at least `min_score`, best first, equal scores
    in database order; only those are aligned (starts, ends, CIGAR). On CUDA the database is spread
    over every visible device.

    queries, database: lists of sequences (str or bytes), none empty."""
    return [[Hit._make(h) for h in per_query] for per_query in
            _dpx.search(queries, database, top, min_score, matrix, gap_open, gap_extend, backend, match, mismatch)]


search.__doc__ += _SCORING + """

    Returns one list of Hit records per query.
    """


def edit_distance(a, b, cigar=False, backend="auto"):
    """Levenshtein distances (unit costs) of a[i] and b[i]: bytes compared as they are,
    case-sensitively.

    a, b: lists of sequences (str or bytes) of one length, each up to 65,536 letters.
    cigar: also return the CIGARs ('=', 'X', 'I' a letter of a only, 'D' a letter of b only).
    Returns an int32 array, or (distances, list of CIGARs) with cigar=True.
    """
    distances, cigars = _dpx.edit_distance(a, b, cigar, backend)
    return (distances, cigars) if cigar else distances


def dtw(x, y, cost="abs", band=None, backend="auto"):
    """Dynamic time warping costs of x[i] and y[i].

    x, y: lists of 1-D arrays of one length, all int32 or all float32, each up to 65,536 values.
    cost: 'abs' (|a - b| a cell) or 'squared' ((a - b)^2, float32 series only).
    band: Sakoe-Chiba radius in cells (None: no band).
    Returns float64 costs for int32 series (exact) and float32 costs for float32 series; inf
    where no warping path exists (lengths further apart than the band, one series empty).
    """
    if isinstance(x, (list, tuple)):
        x = [_arrays.prepare(s, "x") for s in x]
    if isinstance(y, (list, tuple)):
        y = [_arrays.prepare(s, "y") for s in y]
    return _dpx.dtw(x, y, cost, -1 if band is None else int(band), backend)


__all__ = ["Alignment", "Hit", "sw_scores", "align", "search", "edit_distance", "dtw"]
