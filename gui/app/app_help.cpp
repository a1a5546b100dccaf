// SPDX-License-Identifier: MIT
#include "gui/app/app_help.hpp"

#include "core/version.hpp"

namespace bwlab::gui {

QString views_help() {
  return "<h3>What each view shows</h3>"
         "<p><b>GB/s vs threads</b>: the checked runs' scaling rows (or the scenario chosen under <i>Rows</i>), a "
         "curve per kernel (and size, fill... when they differ); measured curves solid with filled markers, "
         "simulated ones dashed with hollow markers, a curve's measured and simulated versions in the same colour "
         "and marker, side by side in the legend; error bars = min..max over the repetitions, bands = the model's "
         "uncertainty.</p>"
         "<p><b>GB/s vs size</b>: the same against bytes per thread (log scale), with the last-level cache marked.</p>"
         "<p><b>Victim heat map</b>: victim kernel x aggressor threads &rarr; slowdown % against the victim alone, "
         "from victim rows (a victim run or an opened file); one map per aggressor kernel (<i>Map</i>).</p>"
         "<p><b>Topology</b>: packages, NUMA nodes, caches, cores and PUs; during a run each PU is coloured by the "
         "GB/s of the thread pinned there.</p>"
         "<p><b>Table</b>: every point of the checked runs, as in the CSV; sortable, hover for all figures.</p>"
         "<p><b>Runs</b>: the verdict (<tt>bwlab verdict</tt>: where non-temporal stores overtake write-allocate "
         "ones, the thread count where the winner changes, and the recommendation) for the checked runs, and two "
         "runs compared point by point as ratios (the rule of <tt>bwlab compare</tt>).</p>"
         "<p>The <b>run list</b> under the control panel keeps every run: measured, simulated and opened. "
         "Its checkbox draws or hides a run; <i>Remove</i> drops one. <i>File &gt; Save session</i> keeps them all, "
         "with the view, in one JSON file.</p>";
}

QString shortcuts_help() {
  return "<h3>Keyboard shortcuts</h3><table>"
         "<tr><td><b>F5</b></td><td>Run</td></tr>"
         "<tr><td><b>Shift+F5</b></td><td>Stop (finished points are kept)</td></tr>"
         "<tr><td><b>Ctrl+O</b></td><td>Open CSV/JSON files as runs</td></tr>"
         "<tr><td><b>Ctrl+Shift+O</b></td><td>Open a session</td></tr>"
         "<tr><td><b>Ctrl+S</b></td><td>Save the session (runs and view)</td></tr>"
         "<tr><td><b>Ctrl+E</b></td><td>Export the current plot (PNG, PDF, SVG)</td></tr>"
         "<tr><td><b>Ctrl+1 .. Ctrl+6</b></td><td>GB/s vs threads, vs size, heat map, topology, table, runs</td></tr>"
         "<tr><td><b>Ctrl++ / Ctrl+- / Ctrl+0</b></td><td>Larger, smaller, normal text (a projector)</td></tr>"
         "<tr><td><b>F1</b></td><td>What each view shows</td></tr>"
         "<tr><td><b>Ctrl+Q</b></td><td>Quit</td></tr>"
         "</table><p>In the plots: drag to pan, wheel to zoom, hover a point for its figures. In the control panel "
         "the wheel scrolls the panel; a spin box or list changes with the wheel only once clicked (focused).</p>";
}

QString about_text() {
  return QString("<h3>bwlab-gui %1</h3><p>The memory-bandwidth contention lab: rep stosb against non-temporal "
                 "stores, measured on this machine (threads pinned with hwloc) or predicted by the analytical "
                 "model for another one.</p><p>The same engine, parsers and verdicts as the <tt>bwlab</tt> command "
                 "line. MIT licence.</p>")
      .arg(kVersion);
}

}  // namespace bwlab::gui
