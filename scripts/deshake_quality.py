#!/usr/bin/python3
"""Stabilisation quality: shaky clips made from real photographs, stabilised by dpxdeshake, FFmpeg's
deshake and vid.stab (vidstabdetect then vidstabtransform, defaults), each output measured the same
independent way.

Clips: a 640x360 window slides over an enlarged photograph (a slow pan) with a random offset of up
to +-A pixels and +-R degrees a frame, optionally with a moving object (a patch of another
photograph crossing the lower part of the scene). Measurement: features tracked between consecutive
output frames in the central region (60% of each side), a RANSAC similarity fit (OpenCV) per pair,
accumulated into a camera path; residual jitter = RMS of the path minus its 15-frame moving average
(translation in pixels, rotation in tenths of a degree); pan following = the slope of the path
against the pan's (within 20%); timing = wall time per frame of each program; border =
the largest fraction of a frame that is black (luma 16) beyond what the input has.

Run through scripts/bench-deshake.sh, which finds the plugin and writes the table and figures.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

import cv2
import numpy as np

W, H, FPS = 640, 360, 30


def read_pgm(path):
    img = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    if img is None:
        sys.exit(f"cannot read {path}")
    return img


def make_clip(photo, other, pan, amp, rot, frames, obj, seed, path):
    """Writes the clip as raw I420 and returns the true per-frame pan (content motion, px/frame)."""
    rng = np.random.default_rng(seed)
    margin = 48
    need_w = W + abs(pan[0]) * frames + 2 * margin
    need_h = H + abs(pan[1]) * frames + 2 * margin
    scale = max(need_w / photo.shape[1], need_h / photo.shape[0], 1.0)
    big = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    patch = cv2.resize(other, (112, 84), interpolation=cv2.INTER_AREA)
    x0 = margin + (abs(pan[0]) * frames if pan[0] < 0 else 0)
    y0 = margin + (abs(pan[1]) * frames if pan[1] < 0 else 0)
    chroma = np.full((H // 2, W // 2), 128, np.uint8).tobytes()
    with open(path, "wb") as f:
        for i in range(frames):
            scene = big
            if obj:
                scene = big.copy()
                # The object crosses the lower edge of the picture at 4 px a frame, outside the
                # central region the measurement reads (where it would be the camera itself).
                ox = int(x0 + W * 0.1 + 4.0 * i)
                oy = int(y0 + H - 80)
                scene[oy:oy + 84, ox:ox + 112] = patch
            cx = x0 + pan[0] * i + amp * rng.uniform(-1, 1)
            cy = y0 + pan[1] * i + amp * rng.uniform(-1, 1)
            ang = rot * rng.uniform(-1, 1)
            # The frame pixel p shows the scene at R(ang) (p - c) + c + (cx, cy), c the frame centre.
            c, s = math.cos(math.radians(ang)), math.sin(math.radians(ang))
            fc = ((W - 1) / 2, (H - 1) / 2)
            m = np.array([[c, -s, fc[0] + cx - (c * fc[0] - s * fc[1])],
                          [s, c, fc[1] + cy - (s * fc[0] + c * fc[1])]])
            frame = cv2.warpAffine(scene, m, (W, H), flags=cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REFLECT)
            f.write(frame.tobytes())
            f.write(chroma)
            f.write(chroma)
    return (-pan[0], -pan[1])


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{r.stderr[-2000:]}")


def stabilise(method, clip, out, work, props):
    raw_in = ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", f"{W}x{H}", "-r", str(FPS), "-i", clip]
    raw_out = ["-f", "rawvideo", "-pix_fmt", "yuv420p", out]
    if method == "input":
        run(["cp", clip, out])
    elif method == "deshake":
        run(["ffmpeg", "-v", "error", "-y"] + raw_in + ["-vf", "deshake"] + raw_out)
    elif method == "vidstab":
        trf = os.path.join(work, "transforms.trf")
        run(["ffmpeg", "-v", "error", "-y"] + raw_in + ["-vf", f"vidstabdetect=result={trf}", "-f", "null", "-"])
        run(["ffmpeg", "-v", "error", "-y"] + raw_in + ["-vf", f"vidstabtransform=input={trf}"] + raw_out)
    elif method == "ours":
        run(["gst-launch-1.0", "-q", "filesrc", f"location={clip}", "!", "rawvideoparse", "format=i420",
             f"width={W}", f"height={H}", f"framerate={FPS}/1", "!", "dpxdeshake", "backend=cpu"] + props +
            ["!", "filesink", f"location={out}"])
    else:
        sys.exit(f"unknown method {method}")


def read_luma(path):
    """The Y planes of a raw I420 file (no range conversion, the same samples for every method)."""
    data = np.fromfile(path, np.uint8)
    return data.reshape(-1, H * W * 3 // 2)[:, :H * W].reshape(-1, H, W)


def camera_path(frames):
    """Per-frame steps (tx, ty, angle in degrees) between consecutive frames, central region."""
    x0, x1, y0, y1 = int(W * 0.2), int(W * 0.8), int(H * 0.2), int(H * 0.8)
    mask = np.zeros((H, W), np.uint8)
    mask[y0:y1, x0:x1] = 255
    steps = []
    for a, b in zip(frames[:-1], frames[1:]):
        pts = cv2.goodFeaturesToTrack(a, 400, 0.01, 8, mask=mask)
        if pts is None or len(pts) < 8:
            steps.append((0.0, 0.0, 0.0))
            continue
        nxt, st, _ = cv2.calcOpticalFlowPyrLK(a, b, pts, None, winSize=(21, 21), maxLevel=3)
        good = st.ravel() == 1
        m, _ = cv2.estimateAffinePartial2D(pts[good], nxt[good], method=cv2.RANSAC, ransacReprojThreshold=1.0)
        if m is None:
            steps.append((0.0, 0.0, 0.0))
            continue
        # The step of the picture about the frame centre.
        c = np.array([(W - 1) / 2, (H - 1) / 2])
        t = m[:, :2] @ c + m[:, 2] - c
        steps.append((t[0], t[1], math.degrees(math.atan2(m[1, 0], m[0, 0]))))
    return np.array(steps)


def moving_average(x, n=15):
    k = np.ones(n) / n
    pad = n // 2
    xp = np.pad(x, (pad, pad), mode="edge")
    return np.convolve(xp, k, mode="valid")


def measure(frames, input_frames, true_pan):
    steps = camera_path(frames)
    path = np.cumsum(steps, axis=0)
    res = np.stack([path[:, j] - moving_average(path[:, j]) for j in range(3)], axis=1)
    core = res[7:-7]  # the moving average is complete there
    trans = math.sqrt(np.mean(core[:, 0] ** 2 + core[:, 1] ** 2))
    rot = math.sqrt(np.mean(core[:, 2] ** 2)) * 10
    t = np.arange(len(path))
    mean_step = np.array([np.polyfit(t, path[:, j], 1)[0] for j in range(2)])  # the pan: the path's slope
    pan = np.array(true_pan)
    follow = float(np.linalg.norm(mean_step - pan) / max(np.linalg.norm(pan), 1e-9))
    n = min(len(frames), len(input_frames))
    # Black is luma 16 (limited range) in every output here.
    black = (frames[:n] == 16).mean(axis=(1, 2)) - (input_frames[:n] == 16).mean(axis=(1, 2))
    return {"jitter_px": trans, "jitter_rot": rot, "pan_error": follow, "border": float(max(0.0, black.max())),
            "frames": int(len(frames)), "path": path.tolist()}


def table(results):
    """The quality table (markdown), one row per clip and method, then the targets."""
    lines = ["| clip | method | jitter (px) | jitter (0.1 deg) | pan error | border | ms/frame (CPU) |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for name, r in results.items():
        for method in ["input", "deshake", "vidstab", "ours"]:
            m = r[method]
            lines.append(f"| {name} | {method} | {m['jitter_px']:.2f} | {m['jitter_rot']:.2f} | "
                         f"{100 * m['pan_error']:.1f}% | {100 * m['border']:.1f}% | {m['ms_per_frame']:.1f} |")
    ok = True
    for name, r in results.items():
        o, v, d = r["ours"], r["vidstab"], r["deshake"]
        met = (o["jitter_px"] <= v["jitter_px"] and o["jitter_rot"] <= v["jitter_rot"] and
               o["jitter_px"] <= d["jitter_px"] / 2 and o["jitter_rot"] <= d["jitter_rot"] / 2 and
               o["pan_error"] <= 0.2 and o["border"] < 0.5)
        ok = ok and met
        lines.append(f"target {'met' if met else 'MISSED'} on {name}")
    return "\n".join(lines), ok


def figures(results, work, name, step, image_dir):
    """The jitter plot (camera path of each output, minus its pan) and a before/after picture (the
    mean of 15 consecutive frames of the input and of ours: shake blurs it)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    for method, colour in [("input", "0.6"), ("deshake", "tab:orange"), ("vidstab", "tab:blue"),
                           ("ours", "tab:green")]:
        path = np.array(results[name][method]["path"])
        t = np.arange(len(path))
        label = {"input": "input", "deshake": "FFmpeg deshake", "vidstab": "vid.stab", "ours": "dpxdeshake"}[method]
        axes[0].plot(t, path[:, 0] - np.polyval(np.polyfit(t, path[:, 0], 1), t), color=colour, label=label)
        axes[1].plot(t, path[:, 2], color=colour, label=label)
    axes[0].set_ylabel("x path minus pan (px)")
    axes[1].set_ylabel("rotation (degrees)")
    axes[1].set_xlabel("frame")
    axes[0].legend(loc="upper right", ncol=4, fontsize=8)
    axes[0].set_title(f"Camera path of each output ({name}: pan, shake of +-5 px and +-0.8 degrees)")
    fig.tight_layout()
    fig.savefig(os.path.join(image_dir, "deshake-jitter.png"), dpi=90)
    # The mean of frames 30..44, each moved back by the pan (content moves by `step` a frame) so
    # that only the shake blurs it.
    def steady_mean(method):
        frames = read_luma(os.path.join(work, f"{name}.{method}.i420"))[30:45].astype(np.float64)
        out = [cv2.warpAffine(f, np.float64([[1, 0, -step[0] * k], [0, 1, -step[1] * k]]), (W, H))
               for k, f in enumerate(frames)]
        return np.mean(out, axis=0)

    before, after = steady_mean("input"), steady_mean("ours")
    pic = np.hstack([before, np.full((H, 8), 255.0), after]).astype(np.uint8)
    cv2.putText(pic, "input", (10, 25), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 255, 2)
    cv2.putText(pic, "dpxdeshake", (W + 18, 25), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 255, 2)
    cv2.imwrite(os.path.join(image_dir, "deshake-before-after.png"), pic)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--photos", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--out-json", required=True)
    ap.add_argument("--frames", type=int, default=90)
    ap.add_argument("--props", default="", help="dpxdeshake properties, space separated")
    ap.add_argument("--clips", default="", help="comma-separated clip names to run (default all)")
    ap.add_argument("--images", default="", help="folder for the jitter plot and the before/after picture")
    ap.add_argument("--ours-only", action="store_true", help="run only dpxdeshake (comparing its settings)")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    photos = {n: read_pgm(os.path.join(args.photos, n + ".pgm"))
              for n in ["camera", "astronaut", "coffee", "rocket", "chelsea"]}
    # name, photo, object photo, pan (px/frame), shake (px), rotation (degrees), moving object
    clips = [
        ("camera", "camera", "coffee", (1.0, 0.0), 5, 0.8, False),
        ("astronaut+obj", "astronaut", "rocket", (0.6, 0.4), 5, 0.8, True),
        ("coffee-small", "coffee", "camera", (1.2, 0.0), 2.5, 0.4, False),
        ("rocket+obj", "rocket", "chelsea", (0.8, -0.2), 5, 0.8, True),
        ("chelsea", "chelsea", "astronaut", (1.0, 0.2), 5, 0.8, False),
        ("camera-vpan+obj", "camera", "rocket", (0.0, 0.8), 3, 0.5, True),
    ]
    wanted = set(args.clips.split(",")) if args.clips else None
    results = {}
    for i, (name, photo, other, pan, amp, rot, obj) in enumerate(clips):
        if wanted and name not in wanted:
            continue
        clip = os.path.join(args.work, name + ".i420")
        true_pan = make_clip(photos[photo], photos[other], pan, amp, rot, args.frames, obj, 1000 + i, clip)
        inp = None
        results[name] = {}
        for method in ["input", "ours"] if args.ours_only else ["input", "deshake", "vidstab", "ours"]:
            out = os.path.join(args.work, f"{name}.{method}.i420")
            started = time.monotonic()
            stabilise(method, clip, out, args.work, args.props.split() if args.props else [])
            elapsed = time.monotonic() - started
            frames = read_luma(out)
            if method == "input":
                inp = frames
            results[name][method] = measure(frames, inp, true_pan)
            results[name][method]["ms_per_frame"] = 1000 * elapsed / args.frames
            print(f"{name:18s} {method:8s} jitter {results[name][method]['jitter_px']:6.2f} px "
                  f"{results[name][method]['jitter_rot']:6.2f} x0.1deg  pan error "
                  f"{100 * results[name][method]['pan_error']:5.1f}%  border "
                  f"{100 * results[name][method]['border']:5.1f}%  "
                  f"{results[name][method]['ms_per_frame']:6.1f} ms/frame", flush=True)
    with open(args.out_json, "w") as f:
        json.dump(results, f)
    if args.ours_only:
        return 0
    text, ok = table(results)
    print(text)
    if args.images and "camera" in results:
        figures(results, args.work, "camera", (-1.0, 0.0), args.images)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
