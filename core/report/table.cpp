// SPDX-License-Identifier: MIT
#include "core/report/plural.hpp"
#include "core/report/point_flags.hpp"
#include "core/report/table.hpp"

#include "core/report/terminal.hpp"
#include "core/report/units.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <map>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

namespace bwlab {

namespace {

using Row = std::vector<std::string>;

// Dimensions that do not have a column of their own; when they vary across the points,
// rows are split by them and a "setup" column names them.
struct Variant {
  bool source = false, host = false, scenario = false, placement = false, membind = false,
       pages = false;
  bool any() const { return source || host || scenario || placement || membind || pages; }
};

Variant varying_dimensions(std::span<const Point> points) {
  Variant v;
  if (points.empty()) return v;
  const Point& a = points.front();
  for (const Point& p : points) {
    v.source |= p.source != a.source;
    v.host |= p.host != a.host;
    v.scenario |= p.scenario != a.scenario;
    v.placement |= p.placement != a.placement;
    v.membind |= p.membind != a.membind;
    v.pages |= p.pages != a.pages;
  }
  return v;
}

std::string variant_label(const Variant& v, const Point& p) {
  std::vector<std::string> parts;
  if (v.source) parts.push_back(p.source);
  if (v.host) parts.push_back(p.host);
  if (v.scenario) parts.push_back(p.scenario);
  if (v.placement) parts.push_back(p.placement);
  if (v.membind) parts.push_back(p.membind);
  if (v.pages) parts.push_back(p.pages);
  return fmt::format("{}", fmt::join(parts, " "));
}

template <typename T>
std::size_t index_of(std::vector<T>& seen, const T& value) {
  const auto it = std::find(seen.begin(), seen.end(), value);
  if (it != seen.end()) return static_cast<std::size_t>(it - seen.begin());
  seen.push_back(value);
  return seen.size() - 1;
}

std::string source_label(std::span<const Point> points) {
  std::vector<std::string> sources;
  for (const Point& p : points) index_of(sources, p.source);
  const bool has_measured = std::find(sources.begin(), sources.end(), "measured") != sources.end();
  const bool has_simulated =
      std::find(sources.begin(), sources.end(), "simulated") != sources.end();
  if (sources.size() == 2 && has_measured && has_simulated) return "measured+simulated";
  return fmt::format("{}", fmt::join(sources, "+"));
}

std::string pad_left(const std::string& s, std::size_t w) {
  return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}
std::string pad_right(const std::string& s, std::size_t w) {
  return s.size() >= w ? s : s + std::string(w - s.size(), ' ');
}

std::string point_label(const Point& p, const std::string& variant) {
  std::string s = fmt::format("{} {} {}T {}", p.kernel, size_label(p.size_bytes), p.threads, p.fill);
  if (!variant.empty()) s += " " + variant;
  return s;
}

}  // namespace

std::string legend_window(std::span<const Point> points) {
  std::vector<const Point*> own;  // the figures repetitions stand behind
  for (const Point& p : points)
    if (p.source != "simulated") own.push_back(&p);
  if (own.empty())
    return "predicted by the analytical model (steady state, no repetitions; [low..high] is the model's uncertainty "
           "band)";
  // Predictions beside measured points have no repetitions: the ranges are the measured points'.
  const std::string of = own.size() < points.size() ? "measured point (simulated ones: the model's, no repetitions)"
                                                    : "point";
  const auto [rlo, rhi] = std::minmax_element(own.begin(), own.end(), [](const Point* a, const Point* b) {
    return a->reps < b->reps;
  });
  const auto [dlo, dhi] = std::minmax_element(own.begin(), own.end(), [](const Point* a, const Point* b) {
    return a->duration_ms < b->duration_ms;
  });
  const int fewest = (*rlo)->reps, most = (*rhi)->reps;
  const double shortest = (*dlo)->duration_ms, longest = (*dhi)->duration_ms;
  const std::string reps = fewest == most ? count_of(fewest, "rep") : fmt::format("{}..{} reps", fewest, most);
  const std::string ms = shortest == longest ? fmt::format("{} ms", shortest) : fmt::format("{}..{} ms", shortest, longest);
  if (fewest == most && shortest == longest) return fmt::format("{} of {} per {}", reps, ms, of);
  // --reps auto notes each point's count under the table; other mixes (files of several runs) do not.
  const bool noted = std::all_of(own.begin(), own.end(), [](const Point* p) {
    return std::any_of(p->flags.begin(), p->flags.end(), [](const std::string& fl) { return fl.rfind("reps auto:", 0) == 0; });
  });
  return fmt::format("{} of {} per {}, by point: {}", reps, ms, of,
                     noted ? "each point's count in its note below" : "the reps and duration_ms of --csv or --json");
}

void print_table(std::ostream& out, std::span<const Point> points, const TerminalStyle& style) {
  if (points.empty()) {
    out << "bwlab: no points\n";
    return;
  }

  // Legend.
  const Point& first = points.front();
  const bool all_simulated =
      std::all_of(points.begin(), points.end(), [](const Point& p) { return p.source == "simulated"; });
  std::string legend = fmt::format("bwlab: {}, {}, GB = 1e9 bytes, aggregate over threads (sum of per-thread rates)",
                                   source_label(points), legend_window(points));
  // What every point shares of its set-up and, for predictions, the machine: the table alone (a
  // file, a pipe, -q) says what was measured or predicted. Dimensions that vary are row labels.
  const auto shared = [&](auto field) {
    for (const Point& p : points)
      if (p.*field != first.*field) return std::string();
    return first.*field;
  };
  const std::string placement = shared(&Point::placement), membind = shared(&Point::membind),
                    pages = shared(&Point::pages), host = shared(&Point::host);
  if (all_simulated && host.rfind("model:", 0) == 0) legend += fmt::format("; machine {}", host.substr(6));
  const std::string huge = huge_pages_note(points);
  if (!placement.empty() && !membind.empty() && !pages.empty())
    legend += fmt::format("; placement {}, memory {}, pages {}{}", placement, membind, pages,
                          huge.empty() ? "" : " " + huge);
  else if (!huge.empty())
    legend += "; thp rows " + huge;

  // Rows (size, threads, fill[, setup]) and kernel columns, both in first-seen order.
  const Variant variant = varying_dimensions(points);
  using RowKey = std::tuple<std::uint64_t, int, std::string, std::string>;
  std::vector<RowKey> rows;
  std::vector<std::string> kernels;
  std::map<std::pair<std::size_t, std::size_t>, const Point*> cells;
  for (const Point& p : points) {
    const std::size_t r =
        index_of(rows, RowKey{p.size_bytes, p.threads, p.fill, variant_label(variant, p)});
    const std::size_t k = index_of(kernels, p.kernel);
    cells.emplace(std::pair{r, k}, &p);  // the first point of a cell wins
  }
  // The speedup columns compare with the first kernel: said once, so a file or pipe of the table
  // (no terminal header line) still names its baseline.
  if (kernels.size() > 1) legend += fmt::format("; speedup: each kernel against {}, the first", kernels.front());
  const auto cell = [&](std::size_t r, std::size_t k) -> const Point* {
    const auto it = cells.find({r, k});
    return it == cells.end() ? nullptr : it->second;
  };

  // Kernel column headers: "name (N reps)" when the kernel's points agree on reps.
  std::vector<std::string> kernel_head(kernels.size());
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    int reps = -1;
    bool same = true;
    for (const Point& p : points) {
      if (p.kernel != kernels[k]) continue;
      if (reps == -1) reps = p.reps;
      same &= p.reps == reps;
    }
    kernel_head[k] = !same ? kernels[k]
                     : reps == 0 ? fmt::format("{} (model)", kernels[k])
                                 : fmt::format("{} ({})", kernels[k], count_of(reps, "rep"));
  }

  // Cell texts.
  const std::size_t nr = rows.size(), nk = kernels.size();
  std::vector<std::vector<std::string>> gbps(nr, std::vector<std::string>(nk));
  std::vector<std::vector<std::string>> spread(nr, std::vector<std::string>(nk));
  std::vector<std::vector<std::string>> speedup(nr, std::vector<std::string>(nk));
  // "(+-  9.27%)" for measured points; "[low..high]" (the model's band) for simulated ones.
  std::size_t spread_width = 11;
  for (std::size_t r = 0; r < nr; ++r) {
    for (std::size_t k = 0; k < nk; ++k) {
      const Point* p = cell(r, k);
      if (!p) {
        gbps[r][k] = "-";
      } else {
        gbps[r][k] = std::isfinite(p->gbps_median) ? fmt::format("{:.2f}", p->gbps_median) : "n/a";
        if (p->source == "simulated" && p->gbps_min < p->gbps_max)
          spread[r][k] = fmt::format("[{:.1f}..{:.1f}]", p->gbps_min, p->gbps_max);
        else if (p->reps == 1)  // one repetition has no spread: "+-0.00%" read as a perfectly steady figure
          spread[r][k] = "(1 rep)";
        else if (std::isfinite(p->gbps_pstdev_pct))
          spread[r][k] = fmt::format("(+-{:6.2f}%)", p->gbps_pstdev_pct);
        spread_width = std::max(spread_width, spread[r][k].size());
      }
      if (k > 0) {
        const Point* base = cell(r, 0);
        const double ratio = (p && base) ? p->gbps_median / base->gbps_median : std::numeric_limits<double>::quiet_NaN();
        speedup[r][k] = std::isfinite(ratio) ? signed_pct((ratio - 1.0) * 100.0)
                                             : std::string("n/a");
      }
    }
  }

  // Widths.
  std::size_t w_size = 4, w_threads = 7, w_fill = 4, w_setup = 5;
  for (const RowKey& row : rows) {
    w_size = std::max(w_size, size_label(std::get<0>(row)).size());
    w_threads = std::max(w_threads, fmt::format("{}", std::get<1>(row)).size());
    w_fill = std::max(w_fill, std::get<2>(row).size());
    w_setup = std::max(w_setup, std::get<3>(row).size());
  }
  std::vector<std::size_t> w_gbps(nk, 4), w_kernel(nk), w_speed(nk, 7);
  for (std::size_t k = 0; k < nk; ++k) {
    for (std::size_t r = 0; r < nr; ++r) {
      w_gbps[k] = std::max(w_gbps[k], gbps[r][k].size());
      w_speed[k] = std::max(w_speed[k], speedup[r][k].size());
    }
    w_kernel[k] = std::max(w_gbps[k] + 1 + spread_width, kernel_head[k].size());
    w_speed[k] = std::max(w_speed[k], kernels[k].size());
  }

  // The wide table: a column per kernel. Built plain first to see whether it fits the terminal.
  const auto wide_lines = [&](const TerminalStyle& st) {
    std::vector<std::string> lines;
  const std::string sep = "  ";
  std::string lead_blank = std::string(w_size, ' ') + sep + std::string(w_threads, ' ') + sep +
                           std::string(w_fill, ' ');
  std::string lead_head =
      pad_left("size", w_size) + sep + pad_left("threads", w_threads) + sep + pad_right("fill", w_fill);
  if (variant.any()) {
    lead_blank += sep + std::string(w_setup, ' ');
    lead_head += sep + pad_right("setup", w_setup);
  }

  std::string h1 = lead_blank, h2 = lead_head;
  for (std::size_t k = 0; k < nk; ++k) {
    h1 += sep + pad_left(kernel_head[k], w_kernel[k]);
    h2 += sep + pad_left(pad_left("GB/s", w_gbps[k]) + " " + pad_right(all_simulated ? "[band]" : "(+- pstdev)", spread_width), w_kernel[k]);
  }
  for (std::size_t k = 1; k < nk; ++k) {
    h1 += sep + pad_left("speedup", w_speed[k]);
    h2 += sep + pad_left(kernels[k], w_speed[k]);
  }
  const auto emit = [&lines](std::string line) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    lines.push_back(std::move(line));
  };
  emit(h1);
  emit(h2);

  for (std::size_t r = 0; r < nr; ++r) {
    const auto& [size, threads, fill, setup] = rows[r];
    std::string line = pad_left(size_label(size), w_size) + sep +
                       pad_left(fmt::format("{}", threads), w_threads) + sep +
                       pad_right(fill, w_fill);
    if (variant.any()) line += sep + pad_right(setup, w_setup);
    // A row ends with "!" when one of its points is flagged unsteady, else "*" when one has notes,
    // as the compact table's lines do (row_mark): a steady disturbance (a thread losing 70% of its
    // CPU in every window) gives a small spread, and such a row read as the cleanest of the table,
    // its flag only in the lines below.
    std::string_view mark;
    for (std::size_t k = 0; k < nk; ++k)
      if (const Point* p = cell(r, k); p && (mark.empty() || row_mark(*p) == "!")) mark = row_mark(*p);
    for (std::size_t k = 0; k < nk; ++k) {
      const Point* p = cell(r, k);
      line += sep;
      const std::string text =
          pad_left(pad_left(gbps[r][k], w_gbps[k]) + " " + pad_right(spread[r][k], spread_width), w_kernel[k]);
      // A line's trailing blanks are trimmed (emit) before any colour could hide them; a mark after
      // the cell keeps them, so the marks of a one-kernel table line up.
      const bool last = k + 1 == nk && nk == 1 && mark.empty();
      std::string shown = text;
      if (last) while (!shown.empty() && shown.back() == ' ') shown.pop_back();
      line += p && p->source == "simulated" ? paint(st, Tint::simulated, shown) : shown;
    }
    for (std::size_t k = 1; k < nk; ++k) line += sep + pad_left(speedup[r][k], w_speed[k]);
    if (!mark.empty()) line += sep + std::string(mark);
    emit(line);
  }
    return lines;
  };

  // Compact: one line per point (kernel, size, threads, fill, GB/s, spread, against the first
  // kernel, ! when flagged), for terminals narrower than 100 columns or than the wide table.
  const auto compact_lines = [&](const TerminalStyle& st) {
    std::vector<Row> rows_out;
    std::vector<int> simulated;
    Row head{"kernel", "size", "thr", "fill"};
    std::vector<bool> left{true, true, false, true};  // the rest right-aligned
    if (variant.any()) head.push_back("setup"), left.push_back(true);
    const std::size_t first_figure = head.size();
    head.insert(head.end(), {"GB/s", all_simulated ? "band" : "+-pstdev"});
    if (nk > 1) head.push_back("vs " + kernels[0]);
    rows_out.push_back(head);
    simulated.push_back(0);
    for (std::size_t r = 0; r < nr; ++r)
      for (std::size_t k = 0; k < nk; ++k) {
        const Point* p = cell(r, k);
        if (!p) continue;
        std::string sp = spread[r][k];
        if (sp.size() > 4 && sp.rfind("(+-", 0) == 0) sp = fmt::format("{:.2f}%", p->gbps_pstdev_pct);
        Row row{p->kernel, size_label(p->size_bytes), fmt::format("{}", p->threads), p->fill};
        if (variant.any()) row.push_back(std::get<3>(rows[r]));
        row.insert(row.end(), {gbps[r][k], sp});
        if (nk > 1) row.push_back(k == 0 ? "" : speedup[r][k]);
        row.push_back(std::string(row_mark(*p)));
        rows_out.push_back(std::move(row));
        simulated.push_back(p->source == "simulated");
      }
    std::vector<std::size_t> w;
    for (const Row& row : rows_out)
      for (std::size_t i = 0; i < row.size(); ++i) {
        if (w.size() <= i) w.push_back(0);
        w[i] = std::max(w[i], row[i].size());
      }
    std::vector<std::string> lines;
    for (std::size_t i = 0; i < rows_out.size(); ++i) {
      std::string line;
      for (std::size_t c = 0; c < rows_out[i].size(); ++c) {
        if (c) line += c == 1 || c == first_figure ? "  " : " ";
        const bool to_left = c < left.size() && left[c];
        std::string cell_text = to_left ? pad_right(rows_out[i][c], w[c]) : pad_left(rows_out[i][c], w[c]);
        if (c == first_figure && simulated[i]) cell_text = paint(st, Tint::simulated, cell_text);
        line += cell_text;
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      lines.push_back(std::move(line));
    }
    return lines;
  };

  std::size_t longest = 0;
  if (style.width > 0)
    for (const std::string& l : wide_lines(TerminalStyle{})) longest = std::max(longest, l.size());
  const bool compact = wants_compact(style, longest);
  out << wrap_text(legend, style.width);
  for (const std::string& l : compact ? compact_lines(style) : wide_lines(style)) out << l << '\n';

  // Footnotes: every flag of every point. The same flag on the same kernel, size, fill and
  // variant at several thread counts is one line naming them (a simulated sweep's "95% of RFO
  // reads evaded" at 1..72T used to print once per point).
  struct Note {
    const Point* first;
    std::string variant, flag;
    std::vector<int> threads;
  };
  std::vector<Note> notes;
  for (const Point& p : points)
    for (const std::string& flag : p.flags) {
      const std::string v = variant_label(variant, p);
      auto same = std::find_if(notes.begin(), notes.end(), [&](const Note& n) {
        return n.flag == flag && n.variant == v && n.first->kernel == p.kernel && n.first->size_bytes == p.size_bytes &&
               n.first->fill == p.fill;
      });
      if (same == notes.end()) notes.push_back({&p, v, flag, {p.threads}});
      else same->threads.push_back(p.threads);
    }
  for (const Note& n : notes) {
    const Point& p = *n.first;
    std::string label = point_label(p, n.variant);
    if (n.threads.size() > 1) {
      const auto [lo, hi] = std::minmax_element(n.threads.begin(), n.threads.end());
      // Up to four counts are listed ("1, 2, 53 and 54T": "1..54T (4 thread counts)" read as a
      // range of every count between); more get the range and how many of them.
      const std::string at =
          n.threads.size() == 2 ? fmt::format("{}T and {}T", n.threads[0], n.threads[1])
          : n.threads.size() <= 4
              ? fmt::format("{} and {}T", fmt::join(n.threads.begin(), n.threads.end() - 1, ", "), n.threads.back())
              : threads_range_label(*lo, *hi, n.threads.size());
      label = fmt::format("{} {} {} {}", p.kernel, size_label(p.size_bytes), at, p.fill);
      if (!n.variant.empty()) label += " " + n.variant;
    }
    print_flag_line(out, style, std::string(footnote_mark(p, n.flag)) + label + ": " + n.flag);
  }
}

std::string gbps_meaning(std::span<const Point> points) {
  return gbps_meaning(
      std::any_of(points.begin(), points.end(), [](const Point& p) { return p.scenario == "victim"; }));
}

std::string huge_pages_note(std::span<const Point> points) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const Point& p : points)
    if (p.pages == "thp" && std::isfinite(p.huge_pct)) lo = std::min(lo, p.huge_pct), hi = std::max(hi, p.huge_pct);
  if (lo > hi) return {};
  if (std::round(lo) == std::round(hi)) return fmt::format("({:.0f}% of buffer bytes in huge pages)", lo);
  return fmt::format("({:.0f}..{:.0f}% of buffer bytes in huge pages, by point)", lo, hi);
}

std::string gbps_meaning(bool victim) {
  return victim ? "aggregate over threads (victim rows: the victim thread's own GB/s, and threads = 1 victim + k "
                  "aggressors)"
                : "aggregate over threads";
}

std::string threads_range_label(int lo, int hi, std::size_t count) {
  return fmt::format("{}..{}T ({} thread counts)", lo, hi, count);
}

void print_fill_comparison(std::ostream& out, std::span<const Point> points) {
  const Variant variant = varying_dimensions(points);
  using Key = std::tuple<std::string, std::uint64_t, int, std::string>;
  std::vector<Key> groups;
  std::vector<std::vector<const Point*>> members;  // first point of each fill, first-seen order
  for (const Point& p : points) {
    const std::size_t g =
        index_of(groups, Key{p.kernel, p.size_bytes, p.threads, variant_label(variant, p)});
    if (members.size() < groups.size()) members.resize(groups.size());
    auto& m = members[g];
    if (std::none_of(m.begin(), m.end(), [&](const Point* q) { return q->fill == p.fill; }))
      m.push_back(&p);
  }
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& m = members[g];
    if (m.size() < 2) continue;
    const Point& base = *m.front();
    std::string label = fmt::format("{} {} {}T", base.kernel, size_label(base.size_bytes), base.threads);
    if (!std::get<3>(groups[g]).empty()) label += " " + std::get<3>(groups[g]);
    for (std::size_t i = 1; i < m.size(); ++i) {
      const Point& other = *m[i];
      const double ratio = base.gbps_median / other.gbps_median;
      std::string verdict = std::isfinite(ratio) && ratio > 0 ? fmt::format("{} is {:.2f}x", base.fill, ratio)
                                                              : std::string("ratio n/a");
      // The only ratio printed without a noise judgement: the min..max ranges say whether it is one.
      auto has_range = [](const Point& p) {
        return p.reps > 1 && std::isfinite(p.gbps_min) && std::isfinite(p.gbps_max) && p.gbps_min > 0 &&
               p.gbps_max >= p.gbps_min;
      };
      const bool ranges = has_range(base) && has_range(other);
      if (ranges && std::isfinite(ratio) && ratio > 0)
        verdict += base.gbps_min > other.gbps_max || other.gbps_min > base.gbps_max
                       ? " (min..max ranges apart)"
                       : fmt::format(" (within noise: min..max ranges overlap, pstdev {:.1f}% / {:.1f}%)",
                                     base.gbps_pstdev_pct, other.gbps_pstdev_pct);
      out << fmt::format("fill: {}: {} {:.1f} GB/s vs {} {:.1f} GB/s -> {}\n", label, base.fill,
                         base.gbps_median, other.fill, other.gbps_median, verdict);
    }
  }
}

}  // namespace bwlab
