"""dpx.sw_scores, align, search, edit_distance and dtw on the CPU backend against parasail, edlib and
a plain DTW."""

import re

import numpy as np
import pytest

import dpx

edlib = pytest.importorskip("edlib")  # python3-edlib, python3-parasail (scripts/deps.sh)
parasail = pytest.importorskip("parasail")

PROTEIN = "ARNDCQEGHILKMFPSTWYV"
MATRICES = {"blosum62": parasail.blosum62, "blosum45": parasail.blosum45, "pam250": parasail.pam250}


def random_sequences(rng, count, low, high, alphabet=PROTEIN):
    return ["".join(rng.choice(list(alphabet), size=int(rng.integers(low, high)))) for _ in range(count)]


def related(rng, seq, alphabet=PROTEIN):
    """A mutated copy: substitutions, an insertion and a deletion, so alignments have gaps."""
    s = list(seq)
    for i in rng.choice(len(s), size=len(s) // 5, replace=False):
        s[i] = str(rng.choice(list(alphabet)))
    i = int(rng.integers(0, len(s)))
    s[i:i] = list(rng.choice(list(alphabet), size=3))
    j = int(rng.integers(0, len(s) - 4))
    del s[j:j + 4]
    return "".join(s)


def rescore(cigar, query, target, qb, tb, matrix, gap_open, gap_extend):
    """The score of a CIGAR placed at (qb, tb); also checks '=' / 'X' against the letters."""
    score, q, t = 0, qb, tb
    for count, op in re.findall(r"(\d+)([=XID])", cigar):
        count = int(count)
        if op in "=X":
            for _ in range(count):
                assert (query[q] == target[t]) == (op == "="), (cigar, q, t)
                score += matrix[query[q], target[t]]
                q, t = q + 1, t + 1
        else:
            score -= gap_open + (count - 1) * gap_extend
            if op == "I":
                q += count
            else:
                t += count
    return score, q, t


def parasail_score(mode, query, target, matrix, gap_open, gap_extend):
    function = {"sw": parasail.sw, "nw": parasail.nw, "semiglobal": parasail.sg_dx}[mode]
    return function(query, target, gap_open, gap_extend, matrix).score


@pytest.mark.parametrize("matrix", MATRICES)
@pytest.mark.parametrize("gaps", [(11, 1), (10, 10), (5, 2)])
def test_sw_scores_match_parasail(rng, matrix, gaps):
    queries = random_sequences(rng, 4, 1, 60)
    targets = random_sequences(rng, 5, 0, 80) + [related(rng, queries[0])]
    got = dpx.sw_scores(queries, targets, matrix=matrix, gap_open=gaps[0], gap_extend=gaps[1], backend="cpu")
    assert got.dtype == np.int32 and got.shape == (4, 6)
    want = [[parasail_score("sw", q, t, MATRICES[matrix], *gaps) if t else 0 for t in targets] for q in queries]
    np.testing.assert_array_equal(got, want)


def test_dna_matrix_matches_parasail(rng):
    queries = random_sequences(rng, 3, 5, 50, "ACGT")
    targets = [related(rng, q, "ACGT") for q in queries] + random_sequences(rng, 2, 5, 50, "acgt")
    got = dpx.sw_scores(queries, targets, matrix="dna", match=2, mismatch=-3, gap_open=5, gap_extend=2, backend="cpu")
    dna = parasail.matrix_create("ACGT", 2, -3)
    np.testing.assert_array_equal(got, [[parasail.sw(q, t.upper(), 5, 2, dna).score for t in targets] for q in queries])


@pytest.mark.parametrize("mode", ["sw", "nw", "semiglobal"])
def test_align_scores_match_parasail_and_cigars_rescore(rng, mode):
    queries = random_sequences(rng, 12, 1, 70)
    targets = [related(rng, q) if i % 2 else s for i, (q, s) in enumerate(zip(queries, random_sequences(rng, 12, 1, 90)))]
    records = dpx.align(queries, targets, mode=mode, backend="cpu")
    assert len(records) == len(queries)
    matrix = _matrix_lookup("blosum62")
    for q, t, r in zip(queries, targets, records):
        assert r.score == parasail_score(mode, q, t, parasail.blosum62, 11, 1)
        score, q_end, t_end = rescore(r.cigar, q, t, r.query_begin, r.target_begin, matrix, 11, 1)
        assert (score, q_end, t_end) == (r.score, r.query_end, r.target_end), r
        if mode != "sw":
            assert (r.query_begin, r.query_end) == (0, len(q))
        if mode == "nw":
            assert (r.target_begin, r.target_end) == (0, len(t))


def test_align_without_traceback_gives_score_and_ends(rng):
    q, t = random_sequences(rng, 1, 20, 40)[0], random_sequences(rng, 1, 20, 40)[0]
    with_tb = dpx.align([q], [t], backend="cpu")[0]
    without = dpx.align([q], [t], traceback=False, backend="cpu")[0]
    assert without.cigar == "" and without.query_begin == -1
    assert (without.score, without.query_end, without.target_end) == (with_tb.score, with_tb.query_end, with_tb.target_end)


def test_bytes_and_str_give_the_same_result(rng):
    q, t = random_sequences(rng, 2, 10, 30)
    assert dpx.align([q], [t]) == dpx.align([q.encode()], [bytearray(t.encode())])


def _matrix_lookup(name):
    """parasail's matrix as a dict of letter pairs (ARNDCQEGHILKMFPSTWYVBZX*)."""
    m = MATRICES[name]
    letters = "ARNDCQEGHILKMFPSTWYVBZX*"
    table = np.array(m.matrix).reshape(m.size, m.size)
    return {(a, b): int(table[i, j]) for i, a in enumerate(letters) for j, b in enumerate(letters)}


def test_search_is_the_best_of_all_scores(rng):
    queries = random_sequences(rng, 3, 20, 50)
    database = random_sequences(rng, 40, 10, 80)
    database[7] = related(rng, queries[0])
    database[21] = database[7]  # an equal score: database order decides
    hits = dpx.search(queries, database, top=5, backend="cpu")
    scores = dpx.sw_scores(queries, database, backend="cpu")
    for q, per_query in enumerate(hits):
        order = sorted(range(len(database)), key=lambda i: (-scores[q, i], i))
        want = [i for i in order if scores[q, i] >= 1][:5]
        assert [h.target for h in per_query] == want
        for h in per_query:
            assert h.score == scores[q, h.target]
            a = dpx.align([queries[q]], [database[h.target]], backend="cpu")[0]
            assert (h.query_begin, h.query_end, h.target_begin, h.target_end, h.cigar) == a[1:]
    assert [h.target for h in hits[0][:2]] == [7, 21]


def test_search_top_zero_keeps_every_hit_above_min_score(rng):
    queries = random_sequences(rng, 2, 20, 40)
    database = random_sequences(rng, 15, 10, 40)
    scores = dpx.sw_scores(queries, database)
    hits = dpx.search(queries, database, top=0, min_score=30)
    for q in range(2):
        assert sorted(h.target for h in hits[q]) == [i for i in range(15) if scores[q, i] >= 30]


@pytest.mark.parametrize("alphabet", ["ACGT", "ab"])
def test_edit_distance_matches_edlib(rng, alphabet):
    a = random_sequences(rng, 20, 0, 80, alphabet)
    b = [related(rng, s, alphabet) if len(s) > 8 else t for s, t in zip(a, random_sequences(rng, 20, 0, 80, alphabet))]
    distances, cigars = dpx.edit_distance(a, b, cigar=True, backend="cpu")
    assert distances.dtype == np.int32
    np.testing.assert_array_equal(dpx.edit_distance(a, b, backend="cpu"), distances)
    for s, t, d, cigar in zip(a, b, distances, cigars):
        assert d == edlib.align(s, t, task="distance")["editDistance"] if s and t else d == max(len(s), len(t))
        # applying the CIGAR to a gives b, at a cost equal to the distance
        out, i, cost = [], 0, 0
        for count, op in re.findall(r"(\d+)([=XID])", cigar):
            count = int(count)
            if op == "=":
                out.append(s[i:i + count]); i += count
            elif op == "X":
                out.append(t[len("".join(out)):len("".join(out)) + count]); i += count; cost += count
            elif op == "I":
                i += count; cost += count
            else:
                out.append(t[len("".join(out)):len("".join(out)) + count]); cost += count
        assert "".join(out) == t and i == len(s) and cost == d


def plain_dtw(a, b, cost="abs", band=-1):
    n, m = len(a), len(b)
    if n == 0 or m == 0:
        return 0.0 if n == m else np.inf
    d = np.full((n + 1, m + 1), np.inf)
    d[0, 0] = 0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            if band >= 0 and abs(i - j) > band:
                continue
            diff = float(a[i - 1]) - float(b[j - 1])
            d[i, j] = (abs(diff) if cost == "abs" else diff * diff) + min(d[i - 1, j], d[i, j - 1], d[i - 1, j - 1])
    return d[n, m]


@pytest.mark.parametrize("band", [None, 3])
def test_integer_dtw_matches_a_plain_dtw(rng, band):
    x = [rng.integers(-1000, 1000, size=int(rng.integers(0, 25)), dtype=np.int32) for _ in range(12)]
    y = [rng.integers(-1000, 1000, size=int(rng.integers(0, 25)), dtype=np.int32) for _ in range(12)]
    got = dpx.dtw(x, y, band=band, backend="cpu")
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, [plain_dtw(a, b, band=-1 if band is None else band) for a, b in zip(x, y)])


@pytest.mark.parametrize("cost", ["abs", "squared"])
def test_float_dtw_matches_a_plain_dtw(rng, cost):
    x = [rng.standard_normal(int(rng.integers(1, 25))).astype(np.float32) for _ in range(10)]
    y = [rng.standard_normal(int(rng.integers(1, 25))).astype(np.float32) for _ in range(10)]
    got = dpx.dtw(x, y, cost=cost, backend="cpu")
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, [plain_dtw(a, b, cost) for a, b in zip(x, y)], rtol=1e-5)


def test_dtw_takes_strided_series(rng):
    a = rng.integers(0, 50, 40, dtype=np.int32)
    np.testing.assert_array_equal(dpx.dtw([a[::2]], [a[1::3]]), dpx.dtw([a[::2].copy()], [a[1::3].copy()]))


@pytest.mark.parametrize("call, error, message", [
    (lambda: dpx.sw_scores("ACGT", ["ACGT"]), TypeError, "list of sequences"),
    (lambda: dpx.sw_scores([], ["ACGT"]), ValueError, "empty"),
    (lambda: dpx.sw_scores(["ACGT"], [3]), TypeError, "str or bytes"),
    (lambda: dpx.sw_scores(["ACGT"], ["ACGT"], matrix="blosum99"), ValueError, "blosum99"),
    (lambda: dpx.sw_scores(["ACGT"], ["ACGT"], gap_open=1, gap_extend=2), ValueError, "gap"),
    (lambda: dpx.sw_scores(["A" * 65537], ["ACGT"]), ValueError, "65536"),
    (lambda: dpx.align(["A", "C"], ["A"]), ValueError, "pair up"),
    (lambda: dpx.align(["A"], ["A"], mode="local"), ValueError, "mode"),
    (lambda: dpx.align(["A"], ["A"], backend="gpu"), ValueError, "backend"),
    (lambda: dpx.edit_distance(["A", "C"], ["A"]), ValueError, "pair up"),
    (lambda: dpx.search(["ACD"], ["ACD"], top=2), ValueError, "top=2"),
    (lambda: dpx.search(["ACD"], ["ACD", ""]), ValueError, "no letters"),
    (lambda: dpx.dtw([np.zeros(3, np.int64)], [np.zeros(3, np.int64)]), ValueError, "int32 or float32"),
    (lambda: dpx.dtw([np.zeros(3, np.int32)], [np.zeros(3, np.float32)]), ValueError, "int32"),
    (lambda: dpx.dtw([np.zeros(3, np.int32)], [np.zeros(3, np.int32)], cost="squared"), ValueError, "float32"),
    (lambda: dpx.dtw([np.zeros(3, np.float32)], [np.zeros(3, np.float32)], cost="cube"), ValueError, "cost"),
    (lambda: dpx.dtw([np.zeros((3, 2), np.int32)], [np.zeros(3, np.int32)]), ValueError, "dimensions"),
    (lambda: dpx.dtw([np.zeros(3, np.int32)], []), ValueError, "empty"),
    (lambda: dpx.dtw([np.zeros(3, np.int32)] * 2, [np.zeros(3, np.int32)]), ValueError, "pair up"),
])
def test_bad_input_raises(call, error, message):
    with pytest.raises(error, match=message):
        call()
