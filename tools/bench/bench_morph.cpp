// dpx-bench morph: dilate/erode of 3840x2160 GRAY8 and GRAY16 frames (3x3 and 5x5 rectangles,
// plus 5x5 cross and ellipse; lines, rectangles from 31x31 to 255x255 and 255x1 / 1x255 bars on
// the separable passes) and the compound operations (open, close, gradient, top-hat, black-hat; one
// pass under the default schedule, two passes and a difference under the others), each variant
// beside its anchors in the same run:
//   copy      cudaMemcpyAsync device-to-device of the same bytes (the floor a filter can reach);
//   dpx-<schedule>       the kernel with window max/min from the DPX three-operand instructions,
//                        under each schedule (morph_launch.h): stream, split, tile32, tile64, registers
//                        (tile64, the first schedule, for rect windows only);
//   plain-<default>      the same kernel with two-operand max/min, default schedule;
//   bytesimd-<default>   GRAY8 only: four samples per word, __vmaxu4/__vminu4, default schedule;
//   the default of every element but square 3x3 / 5x5 (morph_launch.h), named after its path:
//     separable          the separable passes, a long window on block maxima (morph_launch.h);
//     separable-blockmax where every pass of the rectangle is such a window;
//     bars-box           crosses and ellipses whose row windows fit a box pass: every bar of the
//                        element in one pass, folded into one chain (morph_bars_box.h);
//     shape-tile         the larger ellipses: every bar of the element in one pass (morph_shape.h);
//   and beside it, where it differs from the default:
//     shape-tile         the other crosses and ellipses in one pass (a variant);
//     separable-blockmax rectangles with every row and column pass on block maxima (morph_rect.h;
//                        a variant; a bar the box pass takes runs it in both);
//   npp       NPP's nppi{Dilate,Erode}3x3Border_8u_C1R / nppi{Dilate,Erode}Border_8u_C1R with the
//             element's mask, when libnppim can be loaded (GRAY8 dilate/erode with square elements
//             up to 31x31: NPP's general mask costs the element's area per pixel);
//   cpu       morph_cpu on all hardware threads.
// GPU figures: per frame, CUDA events around a batch of frames rotated over more than 60 MB
// (so the 60 MB L2 does not hold the input), median over --reps batches. Every GPU variant's
// output on the first frame is compared with the CPU result before it is timed.
// Options: --width=N --height=N override the frame size; --cases=TEXT keeps the cases whose title
// holds TEXT (e.g. "31x31", "GRAY16", "open rect").
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bench.h"
#include "dpx/morphology.h"

#if DPX_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "morph_compound.h"  // is_compound
#include "morph_variants.h"
#include "npp_morph.h"
#endif

namespace dpx {
namespace bench {
namespace {

struct MorphCase {
  MorphOp op;
  MorphShape shape;
  int size;  // square side, or the width where `height` is given
  SampleType type;
  int height = 0;  // 0: square

  int w() const { return size; }
  int h() const { return height != 0 ? height : size; }
  bool fused() const { return w() == h() && (size == 3 || size == 5); }
};

std::vector<MorphCase> morph_cases(bool quick) {
  if (quick) {
    return {{MorphOp::kDilate, MorphShape::kRect, 3, SampleType::kU8},
            {MorphOp::kErode, MorphShape::kRect, 5, SampleType::kU16},
            {MorphOp::kDilate, MorphShape::kEllipse, 5, SampleType::kU8}};
  }
  std::vector<MorphCase> cases;
  for (SampleType type : {SampleType::kU8, SampleType::kU16})
    for (int size : {3, 5})
      for (MorphOp op : {MorphOp::kDilate, MorphOp::kErode}) cases.push_back({op, MorphShape::kRect, size, type});
  // Crosses and ellipses: the library's passes (fused 5x5, separable beyond) beside the one-pass
  // schedule.
  for (SampleType type : {SampleType::kU8, SampleType::kU16})
    for (MorphShape shape : {MorphShape::kCross, MorphShape::kEllipse})
      for (int size : {5, 15, 31, 63}) cases.push_back({MorphOp::kDilate, shape, size, type});
  // The separable passes: lines (the columns at 63 and 127 are where block maxima and the library's
  // column pass meet), a 31x31 box (target <= 2x our 3x3), the largest box.
  for (int height : {15, 63, 127})
    cases.push_back({MorphOp::kDilate, MorphShape::kRect, 1, SampleType::kU8, height});
  cases.push_back({MorphOp::kDilate, MorphShape::kRect, 15, SampleType::kU8, 1});
  // Rectangles up to the largest, and the widest and tallest bars (target: <= 2x the copy), beside
  // the separable passes on block maxima.
  for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
    for (int size : {31, 63, 127, 255}) cases.push_back({MorphOp::kDilate, MorphShape::kRect, size, type});
    cases.push_back({MorphOp::kDilate, MorphShape::kRect, 255, type, 1});
    cases.push_back({MorphOp::kDilate, MorphShape::kRect, 1, type, 255});
  }
  // Compound operations (target: open/close 3x3 <= 1.3x a single dilate).
  for (MorphOp op : {MorphOp::kOpen, MorphOp::kClose, MorphOp::kGradient, MorphOp::kTopHat, MorphOp::kBlackHat})
    cases.push_back({op, MorphShape::kRect, 3, SampleType::kU8});
  cases.push_back({MorphOp::kOpen, MorphShape::kRect, 5, SampleType::kU8});
  cases.push_back({MorphOp::kOpen, MorphShape::kEllipse, 5, SampleType::kU8});
  cases.push_back({MorphOp::kOpen, MorphShape::kRect, 3, SampleType::kU16});
  cases.push_back({MorphOp::kGradient, MorphShape::kRect, 5, SampleType::kU16});
  return cases;
}

std::string section_name(const MorphCase& c, int width, int height) {
  static const char* kOp[] = {"dilate", "erode", "open", "close", "gradient", "tophat", "blackhat"};
  static const char* kShape[] = {"rect", "cross", "ellipse"};
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s %dx%d %s %s %dx%d", c.type == SampleType::kU8 ? "GRAY8" : "GRAY16", width,
                height, kOp[static_cast<int>(c.op)], kShape[static_cast<int>(c.shape)], c.w(), c.h());
  return buf;
}

double gbps(std::size_t frame_bytes, double us) { return us > 0 ? 2.0 * frame_bytes / (us * 1e3) : 0; }

// One frame on the host: the CPU path's input and output, and the reference GPU results must equal.
struct HostFrames {
  PlaneView src;
  MutablePlaneView ref;
  std::vector<std::uint8_t> in, out;
};

HostFrames make_host_frames(int width, int height, SampleType type, std::mt19937_64& rng) {
  HostFrames f;
  const std::size_t pitch = static_cast<std::size_t>(width) * sample_bytes(type);
  f.in.resize(pitch * height);
  f.out.resize(pitch * height);
  for (auto& b : f.in) b = static_cast<std::uint8_t>(rng());
  f.src = PlaneView{f.in.data(), width, height, pitch, 1, type};
  f.ref = MutablePlaneView{f.out.data(), width, height, pitch, 1, type};
  return f;
}

#if DPX_HAVE_CUDA

const char* cuda_failure(cudaError_t e) { return e == cudaSuccess ? nullptr : cudaGetErrorString(e); }

// Input and output frames on the device, enough of them to exceed the L2 (60 MB) per batch.
class DeviceFrames {
 public:
  Status create(const HostFrames& host) {
    shape_ = host.src;
    frame_bytes_ = shape_.pitch * shape_.height;
    constexpr std::size_t kL2Bytes = 60u << 20;
    count_ = static_cast<int>(kL2Bytes / frame_bytes_) + 1;
    DPX_RETURN_IF_ERROR(in_.allocate(frame_bytes_ * count_));
    DPX_RETURN_IF_ERROR(out_.allocate(frame_bytes_ * count_));
    for (int i = 0; i < count_; ++i) {
      if (cudaMemcpy(in_.as<std::uint8_t>() + i * frame_bytes_, host.in.data(), frame_bytes_,
                     cudaMemcpyHostToDevice) != cudaSuccess) {
        return Status(StatusCode::kCudaError, "upload of the input frames failed");
      }
    }
    // cudaMemcpy/cudaMemset run on the legacy stream, which the non-blocking streams the kernels
    // use do not wait for (a pageable upload can return before its DMA ends): finish them here.
    if (cudaDeviceSynchronize() != cudaSuccess) return Status(StatusCode::kCudaError, "upload of the input frames failed");
    return Status::ok();
  }
  int count() const { return count_; }
  std::size_t frame_bytes() const { return frame_bytes_; }
  PlaneView in(int i) const {
    PlaneView v = shape_;
    v.data = in_.as<std::uint8_t>() + static_cast<std::size_t>(i % count_) * frame_bytes_;
    return v;
  }
  MutablePlaneView out(int i) const {
    return MutablePlaneView{out_.as<std::uint8_t>() + static_cast<std::size_t>(i % count_) * frame_bytes_,
                            shape_.width, shape_.height, shape_.pitch, shape_.channels, shape_.type};
  }

 private:
  PlaneView shape_;
  std::size_t frame_bytes_ = 0;
  int count_ = 0;
  DeviceBuffer in_, out_;
};

// Runs `launch(frame)` once on frame 0 and compares with the CPU result; "" when equal.
template <typename Launch>
std::string check_against_cpu(const DeviceFrames& frames, const HostFrames& host, cudaStream_t stream,
                              const Launch& launch) {
  if (cudaMemsetAsync(frames.out(0).data, 0xA5, frames.frame_bytes(), stream) != cudaSuccess) return "memset failed";
  const std::string err = launch(0);
  if (!err.empty()) return err;
  std::vector<std::uint8_t> got(frames.frame_bytes());
  if (const char* e = cuda_failure(cudaMemcpyAsync(got.data(), frames.out(0).data, got.size(),
                                                   cudaMemcpyDeviceToHost, stream))) {
    return e;
  }
  if (const char* e = cuda_failure(cudaStreamSynchronize(stream))) return e;
  return std::memcmp(got.data(), host.out.data(), got.size()) == 0 ? "" : "differs from the CPU result";
}

// Median microseconds per frame: each timed rep runs a batch of 2 x frames.count() launches.
template <typename Launch>
double time_per_frame(const Options& opts, const DeviceFrames& frames, cudaStream_t stream, const Launch& launch) {
  const int batch = 2 * frames.count();
  const double us = time_cuda_us(opts, stream, [&](int) {
    for (int f = 0; f < batch; ++f) launch(f);
  });
  return us > 0 ? us / batch : -1;
}

struct GpuContext {
  Stream stream;
  NppMorph npp;
  std::string npp_why;
  DeviceBuffer npp_mask;
  // The default kernel's rect dilation per (sample type, size), what the compound rows compare with.
  std::map<std::pair<SampleType, int>, double> dilate_us;
};

// What a library kernel's row adds to its note after the ratios: for the compound operations the
// ratio to the default kernel's rect dilation of the same type and size (recorded here when this
// row is that dilation), and whether it is the default.
std::string variant_note(const MorphCase& c, variants::MorphKernel k, variants::MorphSchedule sched,
                         double us, GpuContext& gpu) {
  using variants::MorphKernel;
  using variants::MorphSchedule;
  const bool is_default = k == MorphKernel::kDpx && sched == variants::morph_default_schedule(c.type, c.size);
  const auto dilate = gpu.dilate_us.find({c.type, c.size});
  if (c.op == MorphOp::kDilate && c.shape == MorphShape::kRect && is_default)
    gpu.dilate_us[{c.type, c.size}] = us;
  std::string note;
  if (morph::is_compound(c.op) && dilate != gpu.dilate_us.end()) {
    // The DPX lanes run the compound operations in one pass on the register schedules they are built for.
    const bool one_pass = k == MorphKernel::kDpx && (sched == MorphSchedule::kRegisters || is_default);
    note +=
        ", " + ratio(us, dilate->second) + " a rect dilate" + (one_pass ? " (one pass)" : " (two passes)");
  }
  if (is_default) note += " (default)";
  return note;
}

// The GPU rows of one case; returns false when a variant disagrees with the CPU or CUDA fails.
bool gpu_rows(const Options& opts, const MorphCase& c, const MorphParams& params, const HostFrames& host,
              GpuContext& gpu, const std::string& section, Report& report) {
  DeviceFrames frames;
  const Status made = frames.create(host);
  if (!made) {
    std::fprintf(stderr, "morph: %s\n", made.message().c_str());
    return false;
  }
  const cudaStream_t stream = gpu.stream.get();
  const std::size_t bytes = frames.frame_bytes();
  bool ok = true;

  const double copy_us = time_per_frame(opts, frames, stream, [&](int f) {
    cudaMemcpyAsync(frames.out(f).data, frames.in(f).data, bytes, cudaMemcpyDeviceToDevice, stream);
    return std::string();
  });
  report.add(Row{section, "copy", copy_us, gbps(bytes, copy_us), "GB/s", "anchor: device copy of the frame"});

  // NPP first, so the kernels' notes can compare with it.
  double npp_us = 0;
  std::string npp_note = gpu.npp_why;
  constexpr int kNppLargestSide = 31;
  const bool npp_has = !morph::is_compound(c.op) && c.w() == c.h() &&
                       c.size <= kNppLargestSide;
  if (c.type == SampleType::kU8 && gpu.npp.loaded() && npp_has) {
    const std::uint8_t* mask = nullptr;
    if (c.size != 3 || c.shape != MorphShape::kRect) {
      std::vector<std::uint8_t> host_mask;
      morph_mask(c.shape, c.size, c.size, &host_mask);
      if (!gpu.npp_mask.allocate(host_mask.size()) ||
          cudaMemcpy(gpu.npp_mask.data(), host_mask.data(), host_mask.size(), cudaMemcpyHostToDevice) != cudaSuccess) {
        return false;
      }
      mask = gpu.npp_mask.as<std::uint8_t>();
    }
    const auto npp_launch = [&](int f) {
      const int st = gpu.npp.run(c.op == MorphOp::kDilate, static_cast<const std::uint8_t*>(frames.in(f).data),
                                 static_cast<int>(host.src.pitch), static_cast<std::uint8_t*>(frames.out(f).data),
                                 static_cast<int>(host.src.pitch), host.src.width, host.src.height, c.size, mask,
                                 stream);
      return st == 0 ? std::string() : "NPP status " + std::to_string(st);
    };
    const std::string check = check_against_cpu(frames, host, stream, npp_launch);
    npp_us = time_per_frame(opts, frames, stream, npp_launch);
    npp_note = (check.empty() ? "matches CPU; " : "NOTE " + check + "; ") + ratio(npp_us, copy_us) + " copy";
  } else if (c.type != SampleType::kU8) {
    npp_note = "GRAY8 only";
  } else if (!npp_has) {
    npp_note = "no NPP row: NPP has dilate/erode only, and its general mask costs the element's area per pixel";
  }

  using variants::MorphKernel;
  using variants::MorphSchedule;
  const MorphSchedule default_schedule = variants::morph_default_schedule(c.type, c.size);
  std::vector<std::pair<MorphKernel, MorphSchedule>> runs;
  if (c.fused()) {
    for (MorphSchedule s : {MorphSchedule::kStream, MorphSchedule::kSplit, MorphSchedule::kTile32, MorphSchedule::kTile64,
                             MorphSchedule::kRegisters, MorphSchedule::kRegisters2}) {
      const bool rect_only =
          s != default_schedule && (s == MorphSchedule::kTile64 || s == MorphSchedule::kRegisters2);
      if (!rect_only || c.shape == MorphShape::kRect) runs.emplace_back(MorphKernel::kDpx, s);
    }
    runs.emplace_back(MorphKernel::kPlain, MorphSchedule::kRegisters);  // the variants' lanes run four rows a lane
    if (c.type == SampleType::kU8) runs.emplace_back(MorphKernel::kByteSimd, MorphSchedule::kRegisters);
  } else {
    runs.emplace_back(MorphKernel::kDpx, default_schedule);  // the separable passes take neither
  }
  // Checks a variant's launch against the CPU, times it and adds its row; its note is the ratios to
  // the copy and NPP and then note(us).
  const auto variant_row = [&](const std::string& name, const auto& launch, const auto& note) {
    const std::string check = check_against_cpu(frames, host, stream, launch);
    if (!check.empty()) {
      report.add(Row{section, name, 0, 0, "", "WRONG, not timed: " + check});
      ok = false;
      return;
    }
    const double us = time_per_frame(opts, frames, stream, launch);
    report.add(Row{section, name, us, gbps(bytes, us), "GB/s",
                   ratio(us, copy_us) + " copy, " + ratio(us, npp_us) + " NPP" + note(us)});
  };
  const auto status_text = [](const Status& s) { return s.is_ok() ? std::string() : s.message(); };
  // The default's path where the element is not fused (detail::morph_element_pass and
  // morph_block_maxima_window decide it), and whether the variant of that path repeats it.
  const bool rect = c.shape == MorphShape::kRect;
  const detail::ElementPass element_pass =
      detail::morph_element_pass(frames.in(0), frames.out(0).as_const(), params);
  const bool one_pass = element_pass == detail::ElementPass::kOnePass;
  const auto long_window = [&](int side) {
    return side == 1 || detail::morph_block_maxima_window(c.type, side / 2);
  };
  const bool all_block_maxima = rect && long_window(c.w()) && long_window(c.h());
  const std::string separable_name = one_pass ? variants::kShapeTileName
                                     : element_pass == detail::ElementPass::kBarsBox ? "bars-box"
                                     : all_block_maxima ? variants::kBlockMaximaName
                                                        : "separable";
  for (const auto& [k, sched] : runs) {
    const std::string name =
        c.fused() ? std::string(variants::morph_kernel_name(k)) + "-" + variants::morph_schedule_name(sched)
                  : separable_name;
    const auto launch = [&, k = k, sched = sched](int f) {
      return status_text(
          variants::morph_cuda(k, sched, frames.in(f), frames.out(f), params, stream, nullptr));
    };
    variant_row(name, launch,
                [&, k = k, sched = sched](double us) { return variant_note(c, k, sched, us, gpu); });
  }
  // The variants beside the library where they differ from it: crosses and ellipses in one pass,
  // the rectangles' separable passes on block maxima.
  if ((!rect && !one_pass) || (rect && !c.fused() && !all_block_maxima)) {
    const auto variant = rect ? variants::morph_cuda_block_maxima : variants::morph_cuda_shape_tile;
    variant_row(
        rect ? variants::kBlockMaximaName : variants::kShapeTileName,
        [&](int f) { return status_text(variant(frames.in(f), frames.out(f), params, stream, nullptr)); },
        [](double) { return std::string(" (variant)"); });
  }
  report.add(Row{section, "npp", npp_us, gbps(bytes, npp_us), "GB/s", npp_note});
  return ok && cudaGetLastError() == cudaSuccess;
}
#endif  // DPX_HAVE_CUDA

int run_morph_bench(const Options& opts, Report& report) {
  const int width = opts.width.value_or(opts.quick ? 1280 : 3840);
  const int height = opts.height.value_or(opts.quick ? 720 : 2160);
  std::vector<MorphCase> cases = morph_cases(opts.quick);
  if (!opts.cases.empty()) {
    cases.erase(std::remove_if(cases.begin(), cases.end(),
                               [&](const MorphCase& c) {
                                 return section_name(c, width, height).find(opts.cases) == std::string::npos;
                               }),
                cases.end());
    if (cases.empty()) {
      std::fprintf(stderr, "morph: no case's title holds '%s' (titles read like 'GRAY8 %dx%d dilate rect 31x31')\n",
                   opts.cases.c_str(), width, height);
      return 2;
    }
  }
  std::mt19937_64 rng(20261129);
#if DPX_HAVE_CUDA
  GpuContext gpu;
  const bool have_gpu = cuda_device_count() > 0 && gpu.stream.create().is_ok();
  if (have_gpu && !gpu.npp.load(&gpu.npp_why)) gpu.npp_why = "not available (" + gpu.npp_why + ")";
#endif
  int rc = 0;
  for (const MorphCase& c : cases) {
    const std::string section = section_name(c, width, height);
    MorphParams params;
    params.op = c.op;
    params.shape = c.shape;
    params.width = c.w();
    params.height = c.h();
    HostFrames host = make_host_frames(width, height, c.type, rng);
    const Status s = morph_cpu(host.src, host.ref, params);
    if (!s) {
      std::fprintf(stderr, "morph: %s\n", s.message().c_str());
      return 1;
    }
#if DPX_HAVE_CUDA
    if (have_gpu && !gpu_rows(opts, c, params, host, gpu, section, report)) rc = 1;
    if (!have_gpu) report.add(Row{section, "gpu", 0, 0, "", "no CUDA device: GPU rows skipped"});
#else
    report.add(Row{section, "gpu", 0, 0, "", "built without CUDA: GPU rows skipped"});
#endif
    std::vector<std::uint8_t> scratch_out(host.out.size());
    const MutablePlaneView cpu_out{scratch_out.data(), width, height, host.src.pitch, 1, c.type};
    Options cpu_opts = opts;
    cpu_opts.reps = std::min(opts.reps, opts.quick ? 2 : 10);
    cpu_opts.warmup = 1;
    Status timed = Status::ok();
    const double cpu_us = time_host_us(cpu_opts, [&](int) {
      if (timed) timed = morph_cpu(host.src, cpu_out, params);
    });
    if (!timed) {
      std::fprintf(stderr, "morph: %s\n", timed.message().c_str());
      rc = 1;
      continue;
    }
    const std::size_t bytes = host.src.pitch * height;
    report.add(Row{section, "cpu", cpu_us, gbps(bytes, cpu_us), "GB/s", "all hardware threads"});
  }
  return rc;
}

Registration reg("morph", "morphology 4K GRAY8/GRAY16: dilate/erode 3x3-255x255, open/close/gradient/tophat/blackhat "
                 "(dpx per schedule, plain, byte SIMD, separable, NPP, copy, CPU)",
                 run_morph_bench);

}  // namespace
}  // namespace bench
}  // namespace dpx
