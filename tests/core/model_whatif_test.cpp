// SPDX-License-Identifier: MIT
// What-if machines (the GUI's machine panel): a spec sheet kept in the machine file and read
// back, the atomic machine-file writer, and the per-point explanation the GUI shows on hover.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/model/machine.hpp"
#include "core/model/simulate.hpp"
#include "core/model/uarch.hpp"
#include "core/sweep/parse.hpp"
#include "core/topology/placement.hpp"

namespace bwlab {
namespace {

model::SpecSheet genoa2s() {
  model::SpecSheet s;
  s.uarch = "zen4";
  s.sockets = 2, s.cores = 64, s.smt = 2, s.channels = 12, s.mts = 4800;
  s.llc_bytes = 256ull << 20;
  s.base_ghz = 3.1, s.turbo_ghz = 3.75;
  return s;
}

TEST(WhatIf, SpecSheetSurvivesTheMachineFile) {
  const model::SpecSheet s = genoa2s();
  const MachineParams m = model::machine_from_spec(s);
  std::stringstream text;
  write_machine_json(text, m);
  EXPECT_NE(text.str().find("\"spec_sheet\""), std::string::npos);
  const MachineParams back = read_machine_json(text, "mem");
  EXPECT_EQ(model::spec_sheet_of(back, "mem"), s);
  // Rebuilding from the sheet read back gives the same file, byte for byte.
  std::stringstream again;
  write_machine_json(again, model::machine_from_spec(model::spec_sheet_of(back, "mem")));
  EXPECT_EQ(again.str(), text.str());
}

TEST(WhatIf, PresetsAndCalibrationsHoldNoSpecSheet) {
  const MachineParams& preset = preset_table().front();
  try {
    model::spec_sheet_of(preset, "skylake-x-8270cl");
    FAIL() << "a preset has no spec sheet";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("skylake-x-8270cl"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not built from a spec sheet"), std::string::npos) << e.what();
  }
  // A file without "spec_sheet" reads as before, and still holds none.
  std::stringstream text;
  write_machine_json(text, preset);
  EXPECT_EQ(text.str().find("spec_sheet"), std::string::npos);
  EXPECT_FALSE(read_machine_json(text, "mem").spec_sheet.has_value());
}

TEST(WhatIf, MalformedSpecSheetIsAClearError) {
  std::stringstream text;
  write_machine_json(text, model::machine_from_spec(genoa2s()));
  std::string s = text.str();
  s.replace(s.find("\"sockets\": 2"), 12, "\"sockets\": \"two\"");
  std::istringstream in(s);
  try {
    read_machine_json(in, "bad.json");
    FAIL() << "a string where sockets belongs is refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos) << e.what();
  }
}

TEST(WhatIf, SaveMachineFileWritesAReadableFileOrRefuses) {
  const auto dir = std::filesystem::temp_directory_path() / ("bwlab-whatif-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "m.json").string();
  const MachineParams m = model::machine_from_spec(genoa2s());
  save_machine_file(path, m);
  std::ifstream in(path);
  EXPECT_EQ(model::spec_sheet_of(read_machine_json(in, path), path), genoa2s());
  EXPECT_THROW(save_machine_file(path + "/under-a-file.json", m), InputError);  // its parent is a file
  std::filesystem::remove_all(dir);
}

TEST(WhatIf, PointExplanationIsTheOneSimulateExplainPrints) {
  const MachineParams m = model::machine_from_spec(genoa2s());
  const Topology topo = Topology::from_synthetic(m.topology);
  SweepSpec spec;
  spec.kernels = {"stosb", "movnti"};
  spec.sizes = {16ull << 20, 1ull << 30};
  spec.threads = {1, 8, 128, 256};
  spec.placement = parse_placement("scatter");
  std::vector<std::string> why;
  const std::vector<Point> points = simulate_sweep(spec, topo, m, &why);
  ASSERT_EQ(points.size(), why.size());
  for (std::size_t i = 0; i < points.size(); ++i) EXPECT_EQ(explain_simulated_point(points[i], topo, m), why[i]) << i;
  // The explanation names a binding limit.
  EXPECT_NE(why.back().find("binds: "), std::string::npos);
  Point measured = points.front();
  measured.source = "measured";
  EXPECT_THROW(explain_simulated_point(measured, topo, m), InputError);
  Point too_many = points.front();
  too_many.threads = 1000;  // more threads than the machine has PUs
  EXPECT_THROW(explain_simulated_point(too_many, topo, m), InputError);
}

}  // namespace
}  // namespace bwlab
