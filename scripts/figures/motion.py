"""Motion vectors of dpxmotionest (CPU backend) between two frames cut from a photograph: the
camera pans and one patch moves its own way. Left, the element's own drawing (draw=true); right,
the vectors it wrote (location=) as arrows: docs/images/motion-vectors.png."""
import json
import os
import tempfile

import cv2
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
import numpy as np

from common import parse_args, photo, run_pipeline, save

BLOCK = 16
PAN = (6, 3)            # the camera's move between the frames, pixels (x, y)
PATCH = (96, 96, 80)    # a square patch at (x, y) of this side ...
PATCH_MOVE = (-9, 7)    # ... that moves this way instead
ARROW = 2               # the arrows' length over the vectors'


def frames(img):
    h, w = 320, 416
    x0, y0 = 40, 40
    first = img[y0:y0 + h, x0:x0 + w].copy()
    second = img[y0 + PAN[1]:y0 + PAN[1] + h, x0 + PAN[0]:x0 + PAN[0] + w].copy()
    px, py, side = PATCH
    second[py:py + side, px:px + side] = first[py - PATCH_MOVE[1]:py - PATCH_MOVE[1] + side,
                                               px - PATCH_MOVE[0]:px - PATCH_MOVE[0] + side]
    return first, second


def main():
    args = parse_args(__doc__)
    first, second = frames(photo('astronaut'))
    with tempfile.TemporaryDirectory() as tmp:
        for i, f in enumerate((first, second)):
            cv2.imwrite(os.path.join(tmp, 'frame%d.pgm' % i), f)
        vectors = os.path.join(tmp, 'vectors.jsonl')
        run_pipeline('multifilesrc location=%s/frame%%d.pgm index=0 stop-index=1 '
                     'caps=image/x-portable-graymap,framerate=25/1 ! pnmdec ! videoconvert '
                     '! video/x-raw,format=GRAY8 ! dpxmotionest block-size=%d search-range=16 draw=true '
                     'backend=cpu location=%s ! videoconvert ! video/x-raw,format=GRAY8 ! pnmenc '
                     '! multifilesink location=%s/out%%d.pgm' % (tmp, BLOCK, vectors, tmp))
        drawn = cv2.imread(os.path.join(tmp, 'out1.pgm'), cv2.IMREAD_GRAYSCALE)
        with open(vectors) as f:
            lines = [json.loads(line) for line in f if line.strip()]
    field = next(l for l in lines if l.get('vectors'))
    v = np.array(field['vectors'], dtype=float).reshape(field['rows'], field['columns'], 3)
    scale = field.get('scale', 1)

    fig, axes = plt.subplots(1, 2, figsize=(12, 5))
    axes[0].imshow(drawn, cmap='gray', vmin=0, vmax=255)
    axes[0].set_title('dpxmotionest draw=true (second frame)', fontsize=10)
    axes[1].imshow(second, cmap='gray', vmin=0, vmax=255)
    ys, xs = np.mgrid[0:field['rows'], 0:field['columns']]
    cx, cy = xs * BLOCK + BLOCK / 2, ys * BLOCK + BLOCK / 2
    moving = (v[..., 0] != PAN[0] * scale) | (v[..., 1] != PAN[1] * scale)  # where the pan does not explain it
    for mask, colour in ((~moving, '#2b8cbe'), (moving, '#e34a33')):
        axes[1].quiver(cx[mask], cy[mask], v[..., 0][mask] / scale, v[..., 1][mask] / scale, color=colour,
                       angles='xy', scale_units='xy', scale=1 / ARROW, width=0.004)
    axes[1].set_title('its vectors (location=, drawn %dx longer): the pan blue, the rest red' % ARROW, fontsize=10)
    for ax in axes:
        ax.axis('off')
    fig.suptitle('Block matching, 16x16 blocks, +-16 pixels: the camera pans (%d, %d), one patch moves (%d, %d)'
                 % (PAN + PATCH_MOVE), fontsize=11)
    save(fig, args.out, 'motion-vectors.png')


if __name__ == '__main__':
    main()
