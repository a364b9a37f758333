"""What the figure scripts share: their command line, the photographs, running a GStreamer
pipeline with the built plugin, and writing a small PNG."""
import argparse
import io
import os
import subprocess
import tempfile

import cv2
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PHOTOS = os.path.join(ROOT, 'tests', 'data', 'photos')


def parse_args(description):
    p = argparse.ArgumentParser(description=description)
    p.add_argument('--out', required=True, help='folder for the PNGs (docs/images)')
    p.add_argument('--bench', nargs='*', default=[],
                   help='dpx-bench JSON files (dpx-bench ... --json=FILE); default: docs/figures/latest.json')
    return p.parse_args()


def photo(name):
    """A photograph of tests/data/photos as a GRAY8 array."""
    img = cv2.imread(os.path.join(PHOTOS, name + '.pgm'), cv2.IMREAD_GRAYSCALE)
    if img is None:
        raise SystemExit('cannot read photo ' + name)
    return img


def run_pipeline(description):
    """Runs gst-launch-1.0 on `description`; the plugin comes from GST_PLUGIN_PATH."""
    r = subprocess.run(['gst-launch-1.0', '-q'] + description.split(), capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit('pipeline failed: %s\n%s%s' % (description, r.stdout, r.stderr))


def through_element(img, element):
    """`img` (GRAY8) through one element, e.g. 'dpxmorph operation=open', read back as GRAY8."""
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, 'in.pgm'), os.path.join(tmp, 'out.pgm')
        cv2.imwrite(src, img)
        run_pipeline('filesrc location=%s ! pnmdec ! videoconvert ! video/x-raw,format=GRAY8 ! %s '
                     '! videoconvert ! video/x-raw,format=GRAY8 ! pnmenc ! filesink location=%s'
                     % (src, element, dst))
        out = cv2.imread(dst, cv2.IMREAD_GRAYSCALE)
    if out is None or out.shape != img.shape:
        raise SystemExit('no %dx%d frame back from %s' % (img.shape[1], img.shape[0], element))
    return out


def save(fig, out_dir, name):
    """Writes a matplotlib figure as out_dir/name, small: 80 dpi, 256 colours."""
    path = os.path.join(out_dir, name)
    buf = io.BytesIO()
    fig.savefig(buf, dpi=80, bbox_inches='tight')
    Image.open(buf).convert('RGB').quantize(256).save(path, optimize=True)
    print('figure:', os.path.relpath(path, ROOT))
    return path
