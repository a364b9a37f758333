#!/usr/bin/env python3
"""Writes a generated protein database in FASTA: N sequences with a realistic length distribution
and UniProt-like residue frequencies, the same file for the same N and seed.

Lengths: a log-normal distribution with median 300 and sigma 0.75 (about 5% above 1,000 letters,
1 in 2,000 above 3,500), rounded and kept within 20 to 35,000 letters; one sequence in 100,000 is
instead drawn uniformly from 5,000 to 35,000 letters, so that large databases also hold the long
tail of titin-like proteins. Residues: the 20 standard amino acids, drawn independently with about
the frequencies of UniProtKB/Swiss-Prot's composition statistics (in steps of 1/256: a random byte
picks the letter through a 256-entry table, so a million sequences take seconds, not minutes).

usage: make-protein-db.py N OUT.fasta [--seed S]
"""
import argparse
import math
import random
import sys

# UniProtKB/Swiss-Prot amino-acid composition (percent), rounded.
FREQUENCIES = {
    "A": 8.25, "R": 5.53, "N": 4.06, "D": 5.45, "C": 1.37, "Q": 3.93, "E": 6.75, "G": 7.07,
    "H": 2.27, "I": 5.96, "L": 9.66, "K": 5.84, "M": 2.42, "F": 3.86, "P": 4.70, "S": 6.56,
    "T": 5.34, "W": 1.08, "Y": 2.92, "V": 6.87,
}
MEDIAN, SIGMA = 300.0, 0.75
SHORTEST, LONGEST = 20, 35000
LONG_TAIL = 1e-5  # share of sequences drawn from the uniform long tail
LINE = 60


def length(rng):
    if rng.random() < LONG_TAIL:
        return rng.randint(5000, LONGEST)
    n = int(round(rng.lognormvariate(math.log(MEDIAN), SIGMA)))
    return min(max(n, SHORTEST), LONGEST)


def byte_table():
    """256 letters, each as often as its frequency allows (largest remainders fill the rounding)."""
    total = sum(FREQUENCIES.values())
    exact = {c: f * 256 / total for c, f in FREQUENCIES.items()}
    counts = {c: int(x) for c, x in exact.items()}
    for c in sorted(exact, key=lambda c: exact[c] - counts[c], reverse=True)[:256 - sum(counts.values())]:
        counts[c] += 1
    return bytes("".join(c * n for c, n in counts.items()), "ascii")


def main():
    parser = argparse.ArgumentParser(description="Generated protein database (FASTA).")
    parser.add_argument("count", type=int, help="number of sequences")
    parser.add_argument("out", help="output FASTA file ('-' = standard output)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    args = parser.parse_args()
    if args.count < 1:
        parser.error("N must be at least 1")
    rng = random.Random(args.seed)
    table = byte_table()
    out = sys.stdout if args.out == "-" else open(args.out, "w")
    with out:
        for i in range(args.count):
            seq = rng.randbytes(length(rng)).translate(table).decode("ascii")
            out.write(">db%d generated length=%d\n" % (i + 1, len(seq)))
            for p in range(0, len(seq), LINE):
                out.write(seq[p:p + LINE] + "\n")


if __name__ == "__main__":
    main()
