// The structuring elements as both backends build them. Every row of OpenCV's rect, cross and
// ellipse masks is one run of columns centred on the anchor, and the run's half-width never grows
// away from the centre row; so a mask is the union of a few centred rectangles ("bars"), each of
// which is separable (a running max/min along rows, then along columns). The result over the mask
// is the max/min over its bars: 1 bar for a rectangle, 2 for a cross, one per distinct run width
// for an ellipse.
#pragma once

#include <vector>

#include "dpx/morphology.h"

namespace dpx {
namespace morph {

// A centred rectangle of (2 * half_width + 1) x (2 * half_height + 1) pixels.
struct Bar {
  int half_width;
  int half_height;
};

// Half-width of the run of each mask row (dy = 0 .. height - 1), OpenCV's getStructuringElement.
// Sizes must have passed morph_validate().
std::vector<int> row_half_widths(MorphShape shape, int width, int height);

// The mask as bars, widest first.
std::vector<Bar> mask_bars(MorphShape shape, int width, int height);

}  // namespace morph
}  // namespace dpx
