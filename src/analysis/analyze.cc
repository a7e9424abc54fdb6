#include "analysis/analyze.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <iterator>
#include <map>
#include <set>

#include "analysis/context.h"
#include "analysis/hook_findings.h"
#include "analysis/same_rights.h"
#include "load/parallel.h"
#include "util/strings.h"

namespace footprint {

namespace {

struct AnnotationIgnore {
  std::vector<std::string> checks;
  std::string reason;
};

// "check-a,check-b -- reason"
AnnotationIgnore parse_ignore_annotation(std::string_view value) {
  AnnotationIgnore out;
  size_t dashes = value.find("--");
  std::string_view list = value.substr(0, dashes);
  if (dashes != std::string_view::npos) out.reason = std::string(trim(value.substr(dashes + 2)));
  size_t pos = 0;
  while (pos <= list.size()) {
    size_t comma = list.find(',', pos);
    if (comma == std::string_view::npos) comma = list.size();
    std::string_view id = trim(list.substr(pos, comma - pos));
    if (!id.empty()) out.checks.emplace_back(id);
    pos = comma + 1;
  }
  return out;
}

// `every_check_ran` is false when only an area's checks ran: a waiver for another check is not
// stale then.
void apply_suppressions(const Bundle& bundle, const Config& config, bool every_check_ran,
                        AnalysisResult& result) {
  // Keyed by object index, and only for annotated objects: a slot for every object would cost
  // 56 bytes each, 11 MB for 200,000 small documents.
  std::map<uint32_t, AnnotationIgnore> by_object;
  // Reading every object's annotations is what costs on many small objects: ranges of objects at
  // once find the annotated ones, taken below in input order.
  constexpr size_t kRange = 4096;
  std::vector<std::vector<uint32_t>> annotated_in((bundle.objects.size() + kRange - 1) / kRange);
  parallel_for(annotated_in.size(), bundle.input.jobs, [&](size_t r) {
    for (size_t i = r * kRange; i < std::min(bundle.objects.size(), (r + 1) * kRange); ++i) {
      if (!bundle.objects[i].annotation(kIgnoreAnnotation).empty()) annotated_in[r].push_back(i);
    }
  });
  // Flattened by hand: clang 14 cannot compile libstdc++ 12's views::join.
  std::vector<uint32_t> annotated_objects;
  for (const std::vector<uint32_t>& range : annotated_in)
    annotated_objects.insert(annotated_objects.end(), range.begin(), range.end());
  for (uint32_t index : annotated_objects) {
    const Object& obj = bundle.objects[index];
    std::string_view value = obj.annotation(kIgnoreAnnotation);
    const AnnotationIgnore& annotated = by_object[obj.index] = parse_ignore_annotation(value);
    // Said, as an unknown check is: a request without a check or a reason explains nothing.
    if (annotated.checks.empty()) {
      result.notes.push_back(fmt::format(
          "{}:{}: {} on {} names no check, so it asks to suppress nothing (write CHECK -- REASON)",
          bundle.file_of(obj), obj.position.line, kIgnoreAnnotation, obj.display()));
    } else if (annotated.reason.empty()) {
      result.notes.push_back(fmt::format(
          "{}:{}: {} on {} gives no reason (write CHECK -- REASON), so a reviewer cannot tell "
          "why",
          bundle.file_of(obj), obj.position.line, kIgnoreAnnotation, obj.display()));
    }
    for (const std::string& id : annotated.checks) {
      if (id != "*" && !find_check(id)) {
        // The annotation's own line, where the misspelled ID is to be fixed.
        yaml::Node at = obj.metadata.get("annotations").get(kIgnoreAnnotation);
        result.notes.push_back(fmt::format(
            "{}:{}: {} on {} names unknown check \"{}\"", bundle.file_of(obj),
            at ? at.position().line : obj.position.line, kIgnoreAnnotation, obj.display(), id));
      }
    }
  }
  std::vector<size_t> matched(config.ignore.size());
  for (Finding& f : result.findings) {
    static const AnnotationIgnore kNone;
    auto annotated = by_object.find(f.object_index);
    const AnnotationIgnore& a = annotated == by_object.end() ? kNone : annotated->second;
    bool asked = std::find_if(a.checks.begin(), a.checks.end(), [&](const std::string& id) {
                   return id == "*" || id == f.check;
                 }) != a.checks.end();
    // The input's own request counts only when the user trusts it, and never for a critical
    // finding: only the user's configuration waives those.
    if (asked && config.trust_annotations && f.severity < Severity::kCritical) {
      f.suppressed = true;
      f.suppressed_by = kIgnoreAnnotation;
      f.suppression_reason = a.reason;
    } else if (asked) {
      f.suppression_request = a.reason;
    }
    for (size_t r = 0; r < config.ignore.size(); ++r) {
      const IgnoreRule& rule = config.ignore[r];
      if (!rule.matches(f)) continue;
      ++matched[r];
      if (f.suppressed || rule.expired(config.today)) continue;
      f.suppressed = true;
      f.suppressed_by = fmt::format("{}:{}", config.path, rule.position.line);
      f.suppression_reason = rule.reason;
      f.suppression_request.reset();
    }
    if (f.suppressed) ++result.suppressed;
    if (f.suppression_request) ++result.suppression_requests;
  }
  // An annotation naming a check that reports nothing on its object suppresses nothing: a typo
  // of the object, or a finding fixed since. Said as the configuration's stale waivers are.
  for (const auto& [index, annotated] : by_object) {
    const Object& obj = bundle.objects[index];
    for (const std::string& id : annotated.checks) {
      if (!every_check_ran || id == "*" || !find_check(id)) continue;
      bool reported = std::any_of(
          result.findings.begin(), result.findings.end(),
          [&](const Finding& f) { return f.object_index == obj.index && f.check == id; });
      if (reported) continue;
      result.notes.push_back(fmt::format(
          "{}:{}: {} on {} names {}, which reports nothing on it: "
          "the annotation suppresses nothing",
          bundle.file_of(obj), obj.position.line, kIgnoreAnnotation, obj.display(), id));
    }
  }
  for (size_t r = 0; r < config.ignore.size(); ++r) {
    const IgnoreRule& rule = config.ignore[r];
    bool expired = rule.expired(config.today);
    if (!expired && (matched[r] > 0 || !every_check_ran)) continue;
    size_t suppressed_otherwise = 0;
    if (expired) {
      suppressed_otherwise = static_cast<size_t>(
          std::count_if(result.findings.begin(), result.findings.end(),
                        [&](const Finding& f) { return f.suppressed && rule.matches(f); }));
    }
    result.waiver_issues.push_back({rule, fmt::format("{}:{}", config.path, rule.position.line),
                                    expired, matched[r], suppressed_otherwise});
  }
}

}  // namespace

AnalysisResult analyze(const Bundle& bundle, const Config& config, const ImageSizes* image_sizes) {
  Context context(bundle);
  context.image_sizes = image_sizes;
  return analyze(context, config);
}

AnalysisResult analyze(const Context& context, const Config& config, std::optional<Area> area) {
  const Bundle& bundle = context.bundle;
  std::vector<const Check*> checks;
  for (const Check* check : all_checks()) {
    if (!area || check->area == *area) checks.push_back(check);
  }
  // Checks only read the Context, so they run at once, each into its own list; joined in
  // registry order, the findings are those of a serial run.
  std::vector<Findings> found(checks.size(), Findings(bundle));
  parallel_for(checks.size(), bundle.input.jobs, [&](size_t i) {
    found[i].set_check(checks[i]->id, checks[i]->impact);
    checks[i]->run(context, found[i]);
    join_same_rights(bundle, found[i].list());
    name_hook_phases(bundle, found[i].list());
    // Debug builds (the ASan tests) hold every check to the severities it declares.
    assert(std::all_of(found[i].list().begin(), found[i].list().end(), [&](const Finding& f) {
      return checks[i]->min_severity <= f.severity && f.severity <= checks[i]->max_severity;
    }));
  });
  AnalysisResult result;
  for (Findings& f : found) {
    std::move(f.list().begin(), f.list().end(), std::back_inserter(result.findings));
  }
  std::set<std::string_view> breaking;
  for (const Check* check : all_checks()) {
    if (check->breaks_on_install) breaking.insert(check->id);
  }
  std::stable_sort(result.findings.begin(), result.findings.end(),
                   [&](const Finding& a, const Finding& b) {
                     if (a.severity != b.severity) return a.severity > b.severity;
                     bool a_breaks = breaking.count(a.check) > 0;
                     bool b_breaks = breaking.count(b.check) > 0;
                     if (a_breaks != b_breaks) return a_breaks;
                     if (a.impact != b.impact) return a.impact < b.impact;
                     if (a.object_index != b.object_index) return a.object_index < b.object_index;
                     if (a.position.line != b.position.line)
                       return a.position.line < b.position.line;
                     if (a.check != b.check) return a.check < b.check;
                     return a.message < b.message;
                   });
  apply_suppressions(bundle, config, !area, result);
  return result;
}

}  // namespace footprint
