// The render pipeline of `perlin render` and perlin.render(): evaluate a frame on its pixel grid,
// apply the preset's formula, map to pixels. No files here (the CLI writes them).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "render_plan.hpp"

namespace perlin_render {

/// Frame buffers from 2 MiB up are 2 MiB-aligned and advised to the kernel as huge pages (where
/// transparent huge pages are on `madvise`, Debian's default): a frame's first writes then take
/// one page fault per 2 MiB instead of per 4 KiB. Smaller ones come from operator new.
void* allocate_frame_bytes(std::size_t bytes);
void free_frame_bytes(void* p, std::size_t bytes) noexcept;

/// An allocator that leaves new elements of trivial types uninitialised: a frame's buffers (a
/// gigabyte for an 8192x8192 relief) are written whole by the worker threads, so zero-filling
/// them first would touch every page on one thread.
template <class T>
struct no_init_allocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = no_init_allocator<U>;
  };
  no_init_allocator() = default;
  template <class U>
  no_init_allocator(const no_init_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();  // as std::allocator
    return static_cast<T*>(allocate_frame_bytes(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept { free_frame_bytes(p, n * sizeof(T)); }
  template <class U, class... A>
  void construct(U* p, A&&... a) {
    if constexpr (sizeof...(A) == 0 && std::is_trivially_default_constructible_v<U>) {
      ::new (static_cast<void*>(p)) U;
    } else {
      ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
    }
  }
};
template <class T>
using frame_buffer = std::vector<T, no_init_allocator<T>>;

/// What one frame computed: its grid, the values (then the formula's output), and for a relief
/// the gradient along the image's x and y, planar (plane k: the derivative along axis k < 2; a
/// rotated plane's third partial is not kept: the shading does not use it).
struct frame_values {
  perlin::grid grid;
  frame_buffer<float> values;
  frame_buffer<float> gradient;
};

/// Evaluates the field on frame `frame`'s grid into `v` (sized for the plan), in bands of rows
/// (or slices of a volume);
/// `progress`, when set, is told the fraction of the whole render done.
void render_frame(const render_plan& r, std::size_t frame, frame_values& v,
                  const std::function<void(double)>& progress = {});
/// Marble and wood: the formula at each pixel's noise coordinates, on every slice.
void apply_formula(const render_plan& r, frame_values& v);
/// The bounds mapped to black and white: the plan's, or this frame's own with --stretch.
std::pair<double, double> value_bounds(const render_plan& r, const frame_values& v);
/// Grey (8 or 16 bit, host-endian 16-bit samples) or colormapped (and shaded) RGB pixels of a
/// 2-D frame, rows top to bottom.
frame_buffer<std::uint8_t> to_pixels(const render_plan& r, const frame_values& v);

/// One band of a frame as render_bands gives it: lines [line, line + lines) along the frame's
/// banding axis (rows of an image, slices of a volume), their values after the formula, and for
/// a plan with pixels (r.png) their pixels.
struct frame_band {
  std::size_t line = 0, lines = 0;
  std::span<const float> values;
  std::span<const std::uint8_t> pixels;
};
/// Evaluates frame `frame` band by band and gives each band to `use`, holding one band only: the
/// files written as they are computed (.npy, RAW, TIFF beyond memory). The bands of an image are
/// a multiple of r.band_multiple rows (except the last); a volume's are whole slices. Needs
/// fixed black and white (no --stretch).
void render_bands(const render_plan& r, std::size_t frame,
                  const std::function<void(const frame_band&)>& use,
                  const std::function<void(double)>& progress = {});
/// The lines (rows, or slices of a volume) of render_bands' bands but the last.
[[nodiscard]] std::size_t band_lines_of(const render_plan& r);

/// A normal map's unit normals as floats (an EXR's R, G, B: x, then y up for OpenGL or down
/// for DirectX, then z; each in [-1, 1], the PNG's before they are mapped to [0, 1]).
frame_buffer<float> to_normals(const render_plan& r, const frame_values& v);

/// True when frame pixels can be made band by band: a 2-D image whose black and white are the
/// plan's (no --stretch, which needs the whole frame's min and max first).
bool pixels_by_bands(const render_plan& r);
/// The pixels of frame `frame`: the bytes of render_frame, apply_formula and to_pixels. With
/// pixels_by_bands(r), each band of rows is mapped while its values are still in cache and the
/// frame's values (and a relief's gradient: 768 MB at 8192x8192) are never held whole; else
/// through `v`.
frame_buffer<std::uint8_t> render_pixels(const render_plan& r, std::size_t frame, frame_values& v,
                                         const std::function<void(double)>& progress = {});

}  // namespace perlin_render
