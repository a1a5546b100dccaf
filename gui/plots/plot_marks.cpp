// SPDX-License-Identifier: MIT
#include "gui/plots/plot_marks.hpp"

#include <algorithm>

#include "gui/plots/crossover_marks.hpp"
#include "gui/plots/placement_marks.hpp"

namespace bwlab::gui {

namespace {

// Two machines with the same memory (6 x DDR4-2666 on two microarchitectures, the comparison a
// write-path demo makes) drew two labels on one line, "DRAM peak per node 128.0 GB/s (a)" over
// "... (b)", that read as one line drawn twice: one line names both. Lines merge when they say the
// same figure (their labels less the machine's name are equal).
void merge_alike_lines(std::vector<Ceiling>& lines) {
  const auto name_of = [](const Ceiling& c) { return c.label.substr(c.short_label.size() + 2, c.label.size() - c.short_label.size() - 3); };
  const auto named = [](const Ceiling& c) {
    return c.axis == Ceiling::Axis::y && !c.short_label.empty() && c.label.size() > c.short_label.size() + 3 &&
           c.label.compare(0, c.short_label.size() + 2, c.short_label + " (") == 0 && c.label.back() == ')';
  };
  std::vector<Ceiling> out;
  for (Ceiling& c : lines) {
    const auto same = std::find_if(out.begin(), out.end(), [&](const Ceiling& o) {
      return named(c) && named(o) && o.short_label == c.short_label && o.value == c.value;
    });
    if (same == out.end()) {
      out.push_back(std::move(c));
      continue;
    }
    same->label.insert(same->label.size() - 1, ", " + name_of(c));
  }
  lines = std::move(out);
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
