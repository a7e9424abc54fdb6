// Upgrade review: what installing NEW over OLD changes in effect. Each area compares the models
// both Contexts already hold (CRDs, the RBAC engine's rights per subject, webhook reach, the
// inventory, images, findings) and says what the change does to the cluster, worst first.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/finding.h"
#include "analysis/models/images.h"
#include "analysis/models/inventory.h"

namespace footprint {

struct Context;

// One side of the upgrade: its models, its findings and its install footprint.
struct DiffSide {
  const Context& context;
  const AnalysisResult& analysis;
  const Inventory& inventory;
};

// One change an upgrade makes, with what it does and what to do about it.
struct Change {
  std::string area;  // "crds", "rbac", "admission", "footprint", "images"
  Severity severity = Severity::kInfo;
  std::string subject;               // "CustomResourceDefinition widgets.example.com"
  std::string change;                // what differs, in one line
  std::string consequence;           // what it does to the cluster
  std::string fix;                   // what to do before or during the upgrade; may be empty
  std::string location;              // "file:line" of the object in NEW (in OLD when removed)
  std::vector<std::string> details;  // what the change covers, one item each
  // images, with --sizes: the bytes of the change's new references (nullopt while one of them is
  // of unknown size), and 0 for an image removed.
  std::optional<uint64_t> mirror_bytes;
};

// What the upgrade adds to an air-gapped mirror, when --sizes asked the registries
// (Context::image_sizes of both sides, over every image either side pulls).
struct MirrorDelta {
  bool sized = false;
  std::vector<std::string> images;   // references NEW pulls and OLD does not
  std::vector<std::string> unknown;  // those of them whose registry could not be read
  // OLD's images whose registry could not be read: their blobs cannot be subtracted.
  std::vector<std::string> old_unknown;
  // Distinct blobs (by digest) of the readable ones that no readable image of OLD holds: what a
  // mirror holding OLD's images still has to copy. `unknown` makes it a lower bound (their blobs
  // are left out), `old_unknown` an upper bound (blobs they may hold are counted).
  uint64_t bytes = 0;
};

struct FindingsDelta {
  std::vector<Finding> added;  // in NEW only, worst first; suppressed ones left out
  // In both by fingerprint, at a higher severity in NEW ("worse", which --fail-on judges at its
  // new severity) or a lower one ("better"); Finding::severity_before holds OLD's severity.
  std::vector<Finding> worse;
  std::vector<Finding> better;
  std::vector<Finding> resolved;  // in OLD only
  size_t unchanged = 0;
};

struct UpgradeDiff {
  std::vector<Change> changes;  // worst first, then by area in the order above
  FindingsDelta findings;
  MirrorDelta mirror;
};

// Compares both sides area by area.
UpgradeDiff diff_upgrade(const DiffSide& old_side, const DiffSide& new_side);

// The areas, each appending its changes (area files under analysis/diff/).
void diff_crds(const DiffSide& old_side, const DiffSide& new_side, std::vector<Change>& out);
void diff_rbac(const DiffSide& old_side, const DiffSide& new_side, std::vector<Change>& out);
void diff_admission(const DiffSide& old_side, const DiffSide& new_side, std::vector<Change>& out);
void diff_footprint(const DiffSide& old_side, const DiffSide& new_side, std::vector<Change>& out);
void diff_images(const DiffSide& old_side, const DiffSide& new_side, std::vector<Change>& out);
MirrorDelta diff_mirror(const DiffSide& old_side, const DiffSide& new_side);

// Every image either side pulls, for the registries to size.
std::vector<ImageRef> pulled_images(const Context& old_context, const Context& new_context);
FindingsDelta diff_findings(const DiffSide& old_side, const DiffSide& new_side);

// "file:line" of an object, for Change::location.
std::string location_of(const Context& context, const Object& object);

}  // namespace footprint
