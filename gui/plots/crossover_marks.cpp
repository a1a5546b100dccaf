// SPDX-License-Identifier: MIT
#include "gui/plots/crossover_marks.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/insight/verdict.hpp"

namespace bwlab::gui {

std::vector<Ceiling> crossover_marks(const std::vector<Dataset>& runs, const std::string& scenario, std::size_t limit) {
  const bool victim = scenario == "victim";
  // Where a thread count stands on the plot's x axis, and how a label names it.
  const auto x_of = [&](int threads) { return victim ? threads - 1 : threads; };
  const auto at_text = [&](int threads) { return victim ? fmt::format("k = {}", threads - 1) : fmt::format("{}T", threads); };
  // One mark per run, size and crossover: the NT kernels that change at the same thread count
  // (often identical curves) share it, "stosb vs movnti, movntdq 16 MiB"; so do write-allocate
  // kernels whose change is the same ("(also stosq, memset)"), instead of three stacked labels.
  // What changes is said as the verdict says it ("stosb is level", "stosb overtakes"): NT ahead
  // -> level is no change of winner, and the label gives NT's lead by medians there ("NT +57%"),
  // so an "is level" over a visible gap reads as what it is. With several runs shown, each mark
  // names its run.
  struct Mark {
    std::vector<std::string> was;
    std::vector<std::string> nts;
    std::uint64_t size;
    int at;
    bool predicted;
    std::string change;  // crossover_change_short with the first write-allocate kernel
    std::string shape;   // the same with that kernel's name taken out: what merges two kernels
    double nt_lead_pct;  // NT against write-allocate at `at`, by medians
    bool to_level;       // the change ends in "level": a gap there is within the model's error or the ranges
    std::string fill;    // named when the run holds several fills (zeros and a byte of 1 cross apart)
    std::string aggressor;  // a victim pair's aggressors' kernel
    // From level to a side: the thread count before `at` and NT's lead there, by medians (a
    // predicted gap there was "level" too: "NT pulls ahead at 16T" over a +49% gap at 8T read as
    // if NT had not led before).
    int before = 0;
    double before_lead_pct = 0;
  };
  std::vector<Ceiling> marks;
  // Per mark: its label without the run's name, where it stands, and the runs it names.
  std::vector<std::pair<std::string, double>> keys;
  std::vector<std::vector<std::string>> names;
  const std::size_t shown = static_cast<std::size_t>(
      std::count_if(runs.begin(), runs.end(), [](const Dataset& r) { return r.points.size() >= 2; }));
  // The runs shown that are predictions (every point simulated), as the verdict calls a pair predicted.
  const std::size_t shown_predicted = static_cast<std::size_t>(std::count_if(runs.begin(), runs.end(), [](const Dataset& r) {
    return r.points.size() >= 2 &&
           std::all_of(r.points.begin(), r.points.end(), [](const Point& p) { return p.source == "simulated"; });
  }));
  for (const Dataset& run : runs) {
    if (run.points.size() < 2) continue;
    std::vector<PairVerdict> verdicts;
    try {
      verdicts = compute_verdicts(run.points);
    } catch (const InputError&) {
      continue;  // two points share every parameter: the verdict panel says why
    }
    std::vector<Mark> run_marks;
    std::set<std::string> fills;
    for (const PairVerdict& v : verdicts) fills.insert(v.fill);
    for (const PairVerdict& v : verdicts) {
      if (v.scenario != scenario) continue;  // drawn on another plot (a victim plot's x is k)
      // The largest size whose winner changes with the thread count.
      for (auto c = v.by_size.rbegin(); c != v.by_size.rend(); ++c) {
        if (c->kind != ThreadCrossoverKind::changes) continue;
        const std::string change = crossover_change_short(*c, v.wa_kernel);
        std::string shape = change;
        if (shape.rfind(v.wa_kernel, 0) == 0) shape.replace(0, v.wa_kernel.size(), "WA");
        const auto at = std::find(c->threads.begin(), c->threads.end(), c->at_threads);
        const double lead = at == c->threads.end() ? 0 : c->speedup_pct[std::size_t(at - c->threads.begin())];
        auto same = std::find_if(run_marks.begin(), run_marks.end(), [&](const Mark& m) {
          return m.size == c->size && m.at == c->at_threads && m.predicted == v.predicted && m.shape == shape &&
                 m.fill == v.fill && m.aggressor == v.aggressor;
        });
        if (same == run_marks.end()) {
          run_marks.push_back({{v.wa_kernel}, {v.nt_kernel}, c->size, c->at_threads, v.predicted, change, shape, lead,
                               c->to == Standing::tie, v.fill, v.aggressor});
          const auto i = static_cast<std::size_t>(at - c->threads.begin());
          if (c->from == Standing::tie && c->to != Standing::tie && at != c->threads.end() && i > 0 &&
              c->standing[i - 1] == Standing::tie)
            run_marks.back().before = c->threads[i - 1], run_marks.back().before_lead_pct = c->speedup_pct[i - 1];
        } else {
          if (std::find(same->was.begin(), same->was.end(), v.wa_kernel) == same->was.end())
            same->was.push_back(v.wa_kernel);
          if (std::find(same->nts.begin(), same->nts.end(), v.nt_kernel) == same->nts.end())
            same->nts.push_back(v.nt_kernel);
        }
        break;
      }
    }
    for (const Mark& m : run_marks) {
      // "NT is level (NT -31%)" read as a contradiction: say why a gap counts as level. A gap the
      // eye sees (over kVisibleGapPct) is not called level at all: "stosb is level at 13T (NT +59%
      // ...)" sat under an NT curve far above stosb's; the mark says the gap is within the error,
      // and that no winner is sure from there ("from 13T the gap, NT +31%, is within the model's
      // error" read as a winner change where nothing crosses).
      constexpr double kVisibleGapPct = 10;
      const bool wide_gap = m.to_level && std::abs(m.nt_lead_pct) > kVisibleGapPct;
      std::vector<std::string> tags;
      if (!wide_gap)
        tags.push_back(fmt::format("NT {:+.0f}%{}", m.nt_lead_pct,
                                   !m.to_level ? "" : m.predicted ? " within the model's error" : ", ranges overlap"));
      // Measured too: "stosb pulls ahead at 2T" sat beside a stosb median 18% above NT's at 1T (its
      // ranges overlapping), and read as if stosb had not led before. A measured gap's ranges are
      // drawn as bars, so the short label (a small plot) leaves it out; the model's bands may be hidden.
      const bool gap_before = m.before > 0 && std::abs(m.before_lead_pct) > kVisibleGapPct;
      const std::string predicted_gap_before =
          gap_before && m.predicted
              ? fmt::format("NT {:+.0f}% at {} was within the model's error", m.before_lead_pct, at_text(m.before))
              : std::string();
      if (!predicted_gap_before.empty()) tags.push_back(predicted_gap_before);
      if (m.was.size() > 1)
        tags.push_back(fmt::format("also {}", fmt::join(std::vector<std::string>(m.was.begin() + 1, m.was.end()), ", ")));
      if (fills.size() > 1) tags.push_back("fill " + m.fill);
      if (m.predicted) tags.push_back("predicted");
      // Without the run's name (the legend's), but measured or predicted still said: at 1.5x text the
      // short label of a measured mark read as any run's ("stosb pulls ahead at 2T (NT -10%)").
      std::vector<std::string> short_tags = tags;
      if (shown > 1 && !m.predicted) short_tags.push_back("measured");
      // ... but with two predicted runs shown (two machines side by side), or two measured ones,
      // "predicted" named no run, and the mark read as either's: the short label names the run and
      // leaves out the gap before the change instead.
      const bool alike_runs = (m.predicted ? shown_predicted : shown - shown_predicted) > 1;
      if (alike_runs && !predicted_gap_before.empty()) std::erase(short_tags, predicted_gap_before);
      const std::vector<std::string> short_but_run = short_tags;
      if (alike_runs) short_tags.push_back(run.name);
      if (gap_before && !m.predicted)
        tags.push_back(fmt::format("NT {:+.0f}% at {} had overlapping ranges", m.before_lead_pct, at_text(m.before)));
      const std::vector<std::string> tags_but_run = tags;
      // After a predicted gap the eye sees, the change is where the lead goes beyond the model's
      // error: "NT pulls ahead at 17T" over a +56% gap at 16T read as the crossover's place (the
      // bands may be hidden; a measured gap's ranges are drawn as bars beside its label).
      const std::string what =
          wide_gap                    ? fmt::format("no sure winner from {}, NT {:+.0f}% is within {}", at_text(m.at),
                                                    m.nt_lead_pct, m.predicted ? "the model's error" : "the ranges")
          : gap_before && m.predicted ? fmt::format("{} beyond the model's error at {}", m.change, at_text(m.at))
                                      : fmt::format("{} at {}", m.change, at_text(m.at));
      const auto label_with = [&](const std::vector<std::string>& t) {
        return fmt::format("{} vs {}{} {}: {}{}", m.was.front(), fmt::join(m.nts, ", "),
                           m.aggressor.empty() ? std::string() : " beside " + m.aggressor, size_text(double(m.size)), what,
                           t.empty() ? std::string() : fmt::format(" ({})", fmt::join(t, ", ")));
      };
      // Two runs with the same crossover (two machines predicted alike there): one line names both
      // runs, where two labels said the same at one line.
      const std::string key = label_with(tags_but_run);
      const auto same = std::find(keys.begin(), keys.end(), std::pair{key, double(x_of(m.at))});
      if (same != keys.end()) {
        const auto i = static_cast<std::size_t>(same - keys.begin());
        if (shown > 1 && std::find(names[i].begin(), names[i].end(), run.name) == names[i].end()) {
          names[i].push_back(run.name);
          std::vector<std::string> t = tags_but_run;
          t.push_back(fmt::format("{}", fmt::join(names[i], ", ")));
          marks[i].label = label_with(t);
          if (alike_runs) {
            t = short_but_run;
            t.push_back(fmt::format("{}", fmt::join(names[i], ", ")));
            marks[i].short_label = label_with(t);
            if (marks[i].short_label == marks[i].label) marks[i].short_label.clear();  // none shorter
          }
        }
        continue;
      }
      if (shown > 1) tags.push_back(run.name);
      if (marks.size() >= limit) return marks;
      keys.emplace_back(key, double(x_of(m.at)));
      names.push_back({run.name});
      marks.push_back({Ceiling::Axis::threads, double(x_of(m.at)), label_with(tags),
                       short_tags == tags ? std::string() : label_with(short_tags), m.to_level});
    }
  }
  return marks;
}

}  // namespace bwlab::gui
