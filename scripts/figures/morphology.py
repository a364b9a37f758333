"""Before and after of each morphology operation (dpxmorph, CPU backend) on a photograph:
docs/images/morphology.png."""
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt

from common import parse_args, photo, save, through_element

# (operation, element side): top-hat and black-hat keep what is smaller than the element, so a
# larger one shows more.
OPERATIONS = [('dilate', 7), ('erode', 7), ('open', 7), ('close', 7), ('gradient', 5), ('tophat', 15),
              ('blackhat', 15)]


def main():
    args = parse_args(__doc__)
    img = photo('coffee')
    panels = [('photograph', img)]
    for op, side in OPERATIONS:
        element = 'dpxmorph operation=%s shape=ellipse width=%d height=%d backend=cpu' % (op, side, side)
        panels.append(('%s %dx%d ellipse' % (op, side, side), through_element(img, element)))
    fig, axes = plt.subplots(2, 4, figsize=(12, 4.6))
    for ax, (title, im) in zip(axes.flat, panels):
        ax.imshow(im, cmap='gray', vmin=0, vmax=255, interpolation='nearest')
        ax.set_title(title, fontsize=10)
        ax.axis('off')
    fig.suptitle('dpxmorph on a photograph (GRAY8, CPU backend; CUDA gives the same bytes)', fontsize=11)
    save(fig, args.out, 'morphology.png')


if __name__ == '__main__':
    main()
