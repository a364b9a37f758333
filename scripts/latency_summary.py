#!/usr/bin/env python3
"""Per-element latency from a GStreamer debug log written with GST_TRACERS=latency(flags=element)
and GST_DEBUG=GST_TRACER:7: for each element, how many buffers, and the median, mean and 90th
percentile time in µs from a buffer entering it to the buffer it pushed. The first `--skip`
records of each element (start-up, pools filling) are left out.

usage: latency_summary.py LOG [--skip N] [--label TEXT]
"""
import argparse
import re
import statistics
import sys

RECORD = re.compile(r"element-latency, .*?element=\(string\)([^,]+), src=\(string\)[^,]+, time=\(guint64\)(\d+)")


def read(path):
    times = {}
    with open(path, errors="replace") as log:
        for line in log:
            m = RECORD.search(line)
            if m:
                times.setdefault(m.group(1), []).append(int(m.group(2)) / 1000.0)
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log")
    ap.add_argument("--skip", type=int, default=10)
    ap.add_argument("--label", default="")
    args = ap.parse_args()
    times = read(args.log)
    if not times:
        sys.exit(f"{args.log}: no element-latency records (was the latency tracer loaded?)")
    print(f"| {args.label or args.log} | buffers | median µs | mean µs | p90 µs |")
    print("|---|---|---|---|---|")
    for element, t in times.items():
        t = t[args.skip:] or t
        p90 = sorted(t)[int(0.9 * (len(t) - 1))]
        print(f"| {element} | {len(t)} | {statistics.median(t):.1f} | {statistics.fmean(t):.1f} | {p90:.1f} |")


if __name__ == "__main__":
    main()
