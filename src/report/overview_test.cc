#include "report/overview.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/analyze.h"
#include "analysis/models/inventory.h"
#include "load/loader.h"

namespace footprint {
namespace {

Report field_report(const char* mode, Bundle& bundle) {
  // Appended step by step: GCC 12 reports a false -Warray-bounds on the chained operator+ for
  // some lengths of FOOTPRINT_SOURCE_DIR (e.g. /work/wt-19).
  std::string path = FOOTPRINT_SOURCE_DIR;
  path += "/tests/data/field-report/";
  path += mode;
  auto loaded = load_inputs({path}, LoadOptions{});
  EXPECT_TRUE(loaded.has_value());
  bundle = build_bundle(std::move(*loaded), BundleOptions{"dynamo-system"});
  Report report;
  report.bundle = &bundle;
  report.inventory = take_inventory(bundle);
  report.analysis = analyze(bundle, Config{});
  return report;
}

// The text report's first screen tells the story in about 15 lines before the first table,
// and each risk it lists points at the finding with that number. The global mode's first screen
// is 20 lines: what it creates (6), the counts, six risks of two lines each (its pod webhook and
// its controller's cluster-wide deletes, Secrets, ConfigMap and Service writes, workloads and CRD
// writes) and the pointer on.
TEST(Overview, FirstScreenIsShortAndPointsAtFindings) {
  for (const char* mode : {"global.yaml", "restricted.yaml"}) {
    SCOPED_TRACE(mode);
    Bundle bundle;
    Report report = field_report(mode, bundle);
    std::string text = render_text(report, ReportOptions{});
    size_t summary = text.find("Summary\n");
    size_t tables = text.find("Install footprint\n");
    ASSERT_NE(summary, std::string::npos);
    ASSERT_NE(tables, std::string::npos);
    std::string first = text.substr(summary, tables - summary);
    EXPECT_LE(std::count(first.begin(), first.end(), '\n'), 20) << first;
    Overview o = make_overview(report);
    ASSERT_FALSE(o.risks.empty());
    for (const OverviewRisk& risk : o.risks) {
      const Finding& f = report.analysis.findings[risk.number - 1];  // none suppressed here
      EXPECT_EQ(f.check, risk.check);
      EXPECT_EQ(f.summary, risk.text);
      EXPECT_NE(text.find(fmt::format("  #{} {}  ", risk.number, risk.check)), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace footprint
