// SPDX-License-Identifier: MIT
#include "gui/plots/style.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>

#include <fmt/format.h>

namespace bwlab::gui {
namespace {

// Paul Tol's muted and bright sets, for names outside kernel_palette().
constexpr std::array<const char*, 8> kFallback = {"#44aa99", "#aa4499", "#999933", "#88ccee",
                                                  "#661100", "#6699cc", "#ddcc77", "#888888"};

// Colours of the variants of a plot's one kernel: Paul Tol's muted set and three of his vibrant
// one, all readable on white, in an order that keeps neighbours apart.
constexpr std::array<const char*, 12> kVariantColors = {"#332288", "#ee7733", "#44aa99", "#cc6677",
                                                        "#0077bb", "#999933", "#882255", "#117733",
                                                        "#aa4499", "#88ccee", "#555555", "#ddaa33"};

struct Rgb {
  double r, g, b;
};

Rgb parse(const std::string& hex) {
  const auto v = std::stoul(hex.substr(1), nullptr, 16);
  return {double((v >> 16) & 0xff), double((v >> 8) & 0xff), double(v & 0xff)};
}

std::string hex(Rgb c) {
  auto b = [](double x) { return static_cast<int>(std::lround(std::clamp(x, 0.0, 255.0))); };
  return fmt::format("#{:02x}{:02x}{:02x}", b(c.r), b(c.g), b(c.b));
}

Rgb mix(Rgb a, Rgb b, double t) { return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t}; }

// Shade 0: the colour itself; 1: darker; 2: lighter (toward white, still readable on white).
std::string shade(const std::string& color, int s) {
  if (s == 0) return color;
  const Rgb c = parse(color);
  return hex(s == 1 ? mix(c, {0, 0, 0}, 0.3) : mix(c, {255, 255, 255}, 0.35));
}

std::uint32_t fnv1a(const std::string& s) {
  std::uint32_t h = 2166136261u;
  for (unsigned char ch : s) h = (h ^ ch) * 16777619u;
  return h;
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& kernel_palette() {
  // Write-allocate kernels blue/green, non-temporal ones warm: the two families read apart.
  static const std::vector<std::pair<std::string, std::string>> palette = {
      {"stosb", "#0072b2"},        {"stosq", "#56b4e9"},     {"avx2-store", "#009e73"},
      {"avx512-store", "#117733"}, {"memset", "#332288"},    {"movnti", "#d55e00"},
      {"movntdq", "#e69f00"},      {"avx2-nt", "#cc79a7"},   {"avx512-nt", "#882255"},
      {"clzero", "#000000"},
  };
  return palette;
}

std::string kernel_color_hex(const std::string& kernel) {
  for (const auto& [name, color] : kernel_palette())
    if (name == kernel) return color;
  return kFallback[fnv1a(kernel) % kFallback.size()];
}

std::vector<CurveStyle> assign_styles(const std::vector<CurveKeyForStyle>& curves) {
  // Each kernel's colour; an unknown name whose hashed colour another kernel of this plot already
  // has moves on to the next free fallback colour (so two kernels never share a hue here).
  std::map<std::string, std::string> color_of;
  std::vector<std::string> taken;
  for (const auto& c : curves) {
    if (color_of.count(c.kernel)) continue;
    std::string color = kernel_color_hex(c.kernel);
    const bool known = std::any_of(kernel_palette().begin(), kernel_palette().end(),
                                   [&](const auto& e) { return e.first == c.kernel; });
    if (!known) {
      const std::size_t start = fnv1a(c.kernel) % kFallback.size();
      for (std::size_t i = 0; i < kFallback.size(); ++i) {
        color = kFallback[(start + i) % kFallback.size()];
        if (std::find(taken.begin(), taken.end(), color) == taken.end()) break;
      }
    }
    taken.push_back(color);
    color_of[c.kernel] = color;
  }
  // Several measured runs (at most one simulated): styled by setup and run (style.hpp). Their
  // variants, "32 MiB [a.csv]", "32 MiB [b.csv]", "256 MiB [a.csv]", had cycled through three
  // shades, so the fourth curve had the first one's colour and only its marker told them apart.
  std::vector<std::string> measured_runs, simulated_runs;
  for (const auto& c : curves) {
    auto& runs = c.simulated ? simulated_runs : measured_runs;
    if (std::find(runs.begin(), runs.end(), c.run) == runs.end()) runs.push_back(c.run);
  }
  constexpr int kMarkers = 9;  // Marker values before `none`
  std::map<std::string, std::vector<std::string>> setups;
  for (const auto& c : curves) {
    auto& v = setups[c.kernel];
    if (std::find(v.begin(), v.end(), c.setup) == v.end()) v.push_back(c.setup);
  }
  const bool by_run = measured_runs.size() >= 2 && measured_runs.size() <= 3 && simulated_runs.size() <= 1 &&
                      std::none_of(measured_runs.begin(), measured_runs.end(), [](const auto& r) { return r.empty(); }) &&
                      std::all_of(setups.begin(), setups.end(), [](const auto& e) { return e.second.size() <= 3; });
  if (by_run) {
    std::vector<CurveStyle> out;
    for (const auto& c : curves) {
      const auto& v = setups[c.kernel];
      const int i = static_cast<int>(std::find(v.begin(), v.end(), c.setup) - v.begin());
      CurveStyle s;
      s.marker = static_cast<Marker>(i % kMarkers);
      s.color_hex = shade(color_of[c.kernel], v.size() > 1 ? i : 0);
      const auto run = std::find(measured_runs.begin(), measured_runs.end(), c.run) - measured_runs.begin();
      s.line = c.simulated ? LineStyle::dashed
               : run == 0  ? LineStyle::solid
               : run == 1  ? LineStyle::dotted
                           : LineStyle::dash_dot;
      s.filled_marker = !c.simulated;
      s.band = c.simulated;
      out.push_back(s);
    }
    return out;
  }
  // Variants of each kernel in the order they first appear.
  std::map<std::string, std::vector<std::string>> variants;
  for (const auto& c : curves) {
    auto& v = variants[c.kernel];
    if (std::find(v.begin(), v.end(), c.variant) == v.end()) v.push_back(c.variant);
  }
  // One kernel at many sizes (or setups): no other kernel needs its hue, so each variant gets a
  // colour of its own; three shades of one blue left 13 sizes unreadable.
  const bool one_kernel_many = variants.size() == 1 && variants.begin()->second.size() > 3;
  constexpr int kOwn = static_cast<int>(kVariantColors.size());
  std::vector<CurveStyle> out;
  for (const auto& c : curves) {
    const auto& v = variants[c.kernel];
    const int i = static_cast<int>(std::find(v.begin(), v.end(), c.variant) - v.begin());
    const int block = one_kernel_many ? i / (kOwn * kMarkers / 3) : i / kMarkers;  // 36: colour and marker repeat
    CurveStyle s;
    s.marker = static_cast<Marker>(i % kMarkers);
    // A single curve of a kernel keeps the pure colour; several get shades too (easier to tell apart).
    const int sh = v.size() > 1 ? (i % 3 + block / 2) % 3 : 0;
    s.color_hex = one_kernel_many ? std::string(kVariantColors[static_cast<std::size_t>(i % kOwn)])
                                  : shade(color_of[c.kernel], sh);
    if (c.simulated) s.line = block % 2 == 0 ? LineStyle::dashed : LineStyle::dash_dot;
    else s.line = block % 2 == 0 ? LineStyle::solid : LineStyle::dotted;
    s.filled_marker = !c.simulated;
    s.band = c.simulated;
    out.push_back(s);
  }
  return out;
}

std::string diverging_color_hex(double pct, double span) {
  // ColorBrewer RdBu: blue = faster (pct < 0), neutral #f7f7f7 at 0, red = slower.
  static const Rgb faster[] = {{247, 247, 247}, {209, 229, 240}, {103, 169, 207}, {33, 102, 172}};
  static const Rgb slower[] = {{247, 247, 247}, {253, 219, 199}, {239, 138, 98}, {178, 24, 43}};
  if (!(span > 0) || std::isnan(pct)) return hex(faster[0]);
  const double t = std::clamp(std::fabs(pct) / span, 0.0, 1.0) * 3.0;
  const Rgb* stops = pct < 0 ? faster : slower;
  const int i = std::min(2, static_cast<int>(t));
  return hex(mix(stops[i], stops[i + 1], t - i));
}

}  // namespace bwlab::gui
