// The decision table `compare` opens with: one row per question a reviewer decides an install
// mode on, one short answer per mode, each taken from the models the checks use (the admission
// matcher's reach over the namespace set, the RBAC authorizer, the CRD and ownership analysis,
// the findings), never from the chart's name or values.
#pragma once

#include <string>
#include <vector>

#include "analysis/finding.h"

namespace footprint {

struct Context;

struct DecisionAnswer {
  std::string answer;                 // a few words; empty for a mode that could not be read
  std::vector<std::string> evidence;  // the objects and facts the answer rests on
};

struct DecisionRow {
  std::string id;  // stable, for JSON: "pod-creation", "crd-installer", ...
  std::string question;
  std::vector<DecisionAnswer> answers;  // one per mode
};

struct DecisionTable {
  std::vector<std::string> modes;
  std::vector<DecisionRow> rows;
};

// One install mode as the table reads it: its context and findings, or the error that kept it
// from being rendered or read.
struct DecisionMode {
  std::string name;
  const Context* context = nullptr;                // null when the mode failed
  const std::vector<Finding>* findings = nullptr;  // analyze()'s, worst first
  std::string error;
};

// Rows, in order: "renders" (only when a mode failed: "ok" or the error), "pod-creation",
// "crd-installer", "conversion-wiring", "separate-namespaces", "cluster-footprint",
// "who-installs", "prerequisites", "worst-finding"; only "renders" when no mode rendered.
DecisionTable decision_table(const std::vector<DecisionMode>& modes);

}  // namespace footprint
