"""Bar charts of dpx-bench reports, each of our rows beside its anchors (device copy, NPP,
CUDASW++4.0, StringZillas, cuDTW++, the plain variant, the CPU): docs/images/bench-NAME.png, one
per benchmark. Reads the JSON that `dpx-bench ... --json=FILE` writes; without one, the latest
figures of docs/performance.md kept in the same form in docs/figures/latest.json."""
import json
import os
import re

import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt

from common import ROOT, parse_args, save

OURS = '#d95f02'
ANCHORS = ['#1b9e77', '#7570b3', '#66a61e', '#a6761d', '#666666', '#e7298a', '#e6ab02']


def value(row):
    """(figure, what it is): the throughput where the row has one (higher is better), else the
    median time (lower is better); None for rows without a figure (an anchor that did not run)."""
    if row.get('throughput') and row['throughput'] > 0:
        return row['throughput'], row.get('unit') or 'throughput'
    if row.get('median_us') and row['median_us'] > 0:
        return row['median_us'], 'us'
    return None


def chart(bench, out_dir):
    cases, variants, figures = [], [], {}
    kind = None
    for row in bench['rows']:
        v = value(row)
        if v is None:
            continue
        kind = kind or v[1]
        if v[1] != kind:  # one axis per chart: rows in another unit are left out
            continue
        if row['case'] not in cases:
            cases.append(row['case'])
        if row['variant'] not in variants:
            variants.append(row['variant'])
        figures[(row['case'], row['variant'])] = v[0]
    if not figures:
        return
    height = 0.8 / len(variants)
    fig, ax = plt.subplots(figsize=(9, 0.5 + 0.32 * len(cases) * len(variants) + 0.4))
    anchor_colours = iter(ANCHORS * 4)
    for k, variant in enumerate(variants):
        ys = [i + k * height for i, c in enumerate(cases) if (c, variant) in figures]
        xs = [figures[(c, variant)] for c in cases if (c, variant) in figures]
        colour = OURS if variant.startswith('dpx') else next(anchor_colours)
        bars = ax.barh(ys, xs, height=height, color=colour, label=variant)
        ax.bar_label(bars, labels=['%g' % float('%.4g' % x) for x in xs], padding=3, fontsize=8)
    ax.set_yticks([i + height * (len(variants) - 1) / 2 for i in range(len(cases))], cases, fontsize=9)
    ax.invert_yaxis()
    spread = max(figures.values()) / min(figures.values())
    if spread > 30:
        ax.set_xscale('log')
    better = 'lower is better' if kind == 'us' else 'higher is better'
    ax.set_xlabel('%s (%s%s)' % ('µs' if kind == 'us' else kind, better, ', log scale' if spread > 30 else ''))
    ax.set_title('%s: ours (orange) beside its anchors' % bench['benchmark'], fontsize=11)
    ax.legend(fontsize=8, loc='upper left', bbox_to_anchor=(1.01, 1))
    ax.margins(x=0.15)
    save(fig, out_dir, 'bench-%s.png' % re.sub(r'[^a-z0-9]+', '-', bench['benchmark'].lower()).strip('-'))
    plt.close(fig)


def main():
    args = parse_args(__doc__)
    files = args.bench or [os.path.join(ROOT, 'docs', 'figures', 'latest.json')]
    for path in files:
        with open(path) as f:
            for bench in json.load(f)['benchmarks']:
                chart(bench, args.out)


if __name__ == '__main__':
    main()
