// One root cause, one finding: a check that reports per subject (report_rights) gives several
// accounts of one operator holding the same rights one finding each; they are one claim about the
// install, so analyze() joins them into one that lists every account.
#pragma once

#include <vector>

#include "analysis/finding.h"
#include "model/object.h"

namespace footprint {

// Joins the findings of one check that list one subject each and are alike but for it: the same
// severity, fix and granted requests (Finding::affects "grants"), about objects Helm creates at the
// same phase. The first keeps its place and identity, names the others and lists them under
// "subjects" and "roles".
void join_same_rights(const Bundle& bundle, std::vector<Finding>& findings);

}  // namespace footprint
