#include "distance_checks.h"

#include <string>

namespace dpx {
namespace align {
namespace {

std::string over_limit(const char* what, const char* side, std::size_t index, std::size_t length) {
  return std::string(what) + ": " + side + " " + std::to_string(index) + " has " + std::to_string(length) +
         " elements, more than the limit of " + std::to_string(kAlignDistanceMaxLength);
}

template <typename T>
Status check_lengths(const PackedBatch<T>& batch, const char* what, const char* side) {
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (batch.length(i) > kAlignDistanceMaxLength) return invalid_argument(over_limit(what, side, i, batch.length(i)));
  }
  return Status::ok();
}

template <typename T>
Status check_batches(const PackedBatch<T>& queries, const PackedBatch<T>& targets, Pairing pairing, const void* out,
                     const char* what) {
  if (out == nullptr) return invalid_argument(std::string(what) + ": null output");
  DPX_RETURN_IF_ERROR(validate_pairing(queries.size(), targets.size(), pairing, what));
  DPX_RETURN_IF_ERROR(check_lengths(queries, what, "query"));
  return check_lengths(targets, what, "target");
}

}  // namespace

Status check_band(int band, const char* what) {
  if (band < -1) {
    return invalid_argument(std::string(what) + ": band " + std::to_string(band) + " (use -1 for none, or a radius >= 0)");
  }
  return Status::ok();
}

Status check_edit_inputs(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                         const void* out, const char* what) {
  return check_batches(queries, targets, pairing, out, what);
}

Status check_dtw_inputs(const SeriesBatch& a, const SeriesBatch& b, Pairing pairing, const DtwOptions& options,
                        const void* out, const char* what) {
  DPX_RETURN_IF_ERROR(check_band(options.band, what));
  return check_batches(a, b, pairing, out, what);
}

Status check_dtw_float_options(const DtwFloatOptions& options, const char* what) {
  DPX_RETURN_IF_ERROR(check_band(options.band, what));
  if (options.cost != DtwCost::kAbsolute && options.cost != DtwCost::kSquared) {
    return invalid_argument(std::string(what) + ": unknown cost");
  }
  return Status::ok();
}

Status check_dtw_float_inputs(const FloatSeriesBatch& a, const FloatSeriesBatch& b, Pairing pairing,
                              const DtwFloatOptions& options, const void* out, const char* what) {
  DPX_RETURN_IF_ERROR(check_dtw_float_options(options, what));
  return check_batches(a, b, pairing, out, what);
}

Status check_device_inputs(std::size_t queries, std::size_t targets, Pairing pairing, std::size_t max_length,
                           const void* out, const char* what) {
  if (out == nullptr && pair_count(queries, targets, pairing) > 0) {
    return invalid_argument(std::string(what) + ": null output");
  }
  DPX_RETURN_IF_ERROR(validate_pairing(queries, targets, pairing, what));
  if (max_length > kAlignDistanceMaxLength) {
    return invalid_argument(std::string(what) + ": declared maximum length " + std::to_string(max_length) +
                            " is over the limit of " + std::to_string(kAlignDistanceMaxLength));
  }
  return Status::ok();
}

Status check_dtw_device_inputs(std::size_t a, std::size_t b, Pairing pairing, const DtwOptions& options,
                               std::size_t max_length, const void* out, const char* what) {
  DPX_RETURN_IF_ERROR(check_band(options.band, what));
  return check_device_inputs(a, b, pairing, max_length, out, what);
}

}  // namespace align
}  // namespace dpx
