// SPDX-License-Identifier: MIT
#include "gui/plots/plot_marks.hpp"

#include <algorithm>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gui/plots/crossover_marks.hpp"
#include "gui/plots/placement_marks.hpp"

namespace bwlab::gui {

namespace {

// A machine line's label is "<what> (<machine>, ...)" and its short label "<what>" (the names
// left out for room), as plot_marks and other_machines_lines make them.
bool named(const Ceiling& c) {
  return !c.short_label.empty() && c.label.size() > c.short_label.size() + 3 &&
         c.label.compare(0, c.short_label.size() + 2, c.short_label + " (") == 0 && c.label.back() == ')';
}
std::vector<std::string> names_of(const Ceiling& c) {
  std::vector<std::string> out;
  const std::string list = c.label.substr(c.short_label.size() + 2, c.label.size() - c.short_label.size() - 3);
  for (std::size_t at = 0; at <= list.size();) {
    const std::size_t comma = std::min(list.find(", ", at), list.size());
    out.push_back(list.substr(at, comma - at));
    at = comma + 2;
  }
  return out;
}

// Two machines with the same memory (6 x DDR4-2666 on two microarchitectures, the comparison a
// write-path demo makes) drew two labels on one line, "DRAM peak per node 128.0 GB/s (a)" over
// "... (b)", that read as one line drawn twice: one line names both. Lines merge when they say the
// same figure (their labels less the machine's name are equal).
void merge_alike_lines(std::vector<Ceiling>& lines) {
  std::vector<Ceiling> out;
  for (Ceiling& c : lines) {
    const auto same = std::find_if(out.begin(), out.end(), [&](const Ceiling& o) {
      return c.axis == Ceiling::Axis::y && o.axis == c.axis && named(c) && named(o) && o.short_label == c.short_label &&
             o.value == c.value;
    });
    if (same == out.end()) {
      out.push_back(std::move(c));
      continue;
    }
    for (const std::string& n : names_of(c)) same->label.insert(same->label.size() - 1, ", " + n);
  }
  lines = std::move(out);
}

// A spec sheet machine's name up to its socket count ("cascadelake-sp-1s" of
// "cascadelake-sp-1s-18c-6x2666-llc24.75m-3.7ghz"); other names (presets) whole.
std::string short_machine_name(const std::string& name) {
  static const std::regex spec(R"(^(.+?-\d+s)-\d+c-.*$)");
  std::smatch m;
  return std::regex_match(name, m, spec) ? m[1].str() : name;
}

// With lines of two machines or more, a short label without the machine's name read as either's
// (at 1.5x text "DRAM peak per node 128.0 GB/s" beside Ice Lake's lines was Cascade Lake's): the
// short label names each machine shortly, or, when two short names are alike, there is none.
void name_machines_in_short_labels(std::vector<Ceiling>& lines) {
  std::set<std::string> machines;
  for (const Ceiling& c : lines)
    if (named(c))
      for (const std::string& n : names_of(c)) machines.insert(n);
  if (machines.size() < 2) return;
  std::set<std::string> shorts;
  for (const std::string& n : machines) shorts.insert(short_machine_name(n));
  const bool distinct = shorts.size() == machines.size();
  for (Ceiling& c : lines) {
    if (!named(c)) continue;
    std::vector<std::string> names = names_of(c);
    for (std::string& n : names) n = short_machine_name(n);
    const std::string shorter = fmt::format("{} ({})", c.short_label, fmt::join(names, ", "));
    c.short_label = distinct && shorter.size() < c.label.size() ? shorter : std::string();
  }
}

}  // namespace

PlotMarks plot_marks(const std::vector<Dataset>& runs, std::vector<Ceiling> machine_lines, const Topology* topology,
                     const std::string& machine_host, const std::string& scenario, bool other_machines) {
  if (topology) {
    std::vector<Point> on_machine;
    bool other_machine = false;
    for (const Dataset& d : runs)
      for (const Point& p : d.points) {
        if (p.host == machine_host) on_machine.push_back(p);
        else other_machine = true;
      }
    for (Ceiling& c : placement_marks(on_machine, *topology, scenario)) machine_lines.push_back(std::move(c));
    if (other_machine)
      for (Ceiling& c : machine_lines) {
        if (c.short_label.empty()) c.short_label = c.label;
        c.label += " (" + machine_host.substr(machine_host.find(':') + 1) + ")";
      }
  }
  // Every other simulated machine's DRAM peaks, named (other_machines_lines).
  if (other_machines)
    for (Ceiling& c : other_machines_lines(runs, machine_host)) machine_lines.push_back(std::move(c));
  merge_alike_lines(machine_lines);
  name_machines_in_short_labels(machine_lines);
  // A victim plot's GB/s is one thread's: the machine's aggregate GB/s lines (DRAM peaks, the link)
  // bound no curve there, and listed them "off the plot" above a one-thread axis.
  if (scenario == "victim")
    std::erase_if(machine_lines, [](const Ceiling& c) { return c.axis == Ceiling::Axis::y; });
  PlotMarks m;
  m.threads = machine_lines;
  for (Ceiling& c : crossover_marks(runs, scenario)) m.threads.push_back(std::move(c));
  for (const Ceiling& c : machine_lines)
    if (c.axis != Ceiling::Axis::threads) m.size.push_back(c);
  return m;
}

}  // namespace bwlab::gui
