// docs/checks.md, generated from the check registry so that it cannot drift from the code:
// the severity rules, the catalogue, and one section per check.
#include <fmt/format.h>

#include "analysis/check.h"
#include "analysis/models/escalation_paths.h"
#include "report/report.h"

namespace footprint {

namespace {

constexpr const char* kIntro = R"(# Checks

This page is generated: `footprint checks --format markdown` prints it, and `tests/cli/docs.sh`
fails when it differs from the code. Every check has a stable ID, which suppressions and
`--fail-on` use. Each finding names its object, file and line (and Helm template), says what
happens to the cluster in plain words, and gives a fix.

## Severity follows the consequence

Every check rates its findings by the same rules. Before a finding says that something is
blocked, intercepted or forbidden, the check asks the admission matcher or the RBAC authorizer
(the engines behind `footprint admission` and `footprint can-i`).

| SEVERITY | CONSEQUENCE | FOR EXAMPLE |
|---|---|---|
| critical | This install can break or take over what other teams run. | A fail-closed webhook on pod creation (or the workloads that create pods) in namespaces other teams use, or on what kube-system's components need; a grant equivalent to cluster-admin; powerful rights bound to a broad group; a webhook backend missing from the start while its fail-closed webhooks see every team's pods. |
| high | Very likely harm to other teams, or an install that will not work. | A mutating webhook on every team's pods; Secrets readable or pods creatable in every namespace; a resourceNames rule that can never serve the operator's informer; CRDs nothing installs; conversion webhooks pointing nowhere; objects the API server rejects. |
| medium | Harm that needs a second failure, or reaches less. | Validating webhooks in other teams' path; CRDs installed at run time; a request forbidden by a rule that grants nothing; moving image tags. |
| low | Worth knowing, small consequence. | Fail-closed webhooks on the operator's own API; rights in the operator's own namespace; tags without digests. |
| info | Tidy-up. | Rules that another rule already covers (dead code); roles nothing binds. |

Within one severity, reports show findings in this order: what reaches other teams, what stops
the install from working, the power the install holds, then tidiness. One finding stands for one
root cause (a webhook backend, a role, a group of CRDs, an image) and lists what it affects; the
JSON report keeps the full lists under `affects`.

## Catalogue

)";

constexpr const char* kGoodPracticesIntro = R"(
## Kubernetes' RBAC good practices

Kubernetes' [Role Based Access Control Good Practices](https://kubernetes.io/docs/concepts/security/rbac-good-practices/)
lists the rights that lead to more rights ("Privilege escalation risks") and to outages ("Denial
of service risks"). Each path below is asked of the RBAC engine for every subject of the bundle's
bindings (`+` joins requests that are all needed), and its check reports one finding per subject.
Paths marked "beyond the page" are other rights of the same kind.

)";

std::string anchor(std::string_view id) {
  return fmt::format("#{}", id);
}

}  // namespace

std::string render_checks_markdown() {
  std::string out = kIntro;
  Table table;
  table.header = {"CHECK", "SEVERITY", "IMPACT", "AREA", "DESCRIPTION"};
  table.markdown = {true};  // the IDs link to their sections; IDs are kebab-case, nothing to escape
  for (const Check* check : all_checks()) {
    table.rows.push_back({fmt::format("[{}]({})", check->id, anchor(check->id)),
                          severity_range(*check), std::string(impact_name(check->impact)),
                          std::string(area_name(check->area)), std::string(check->description)});
  }
  out += render_markdown_table(table);
  out += kGoodPracticesIntro;
  Table practices;
  practices.header = {"GOOD PRACTICES ITEM", "PATH", "CHECK", "REQUESTS ASKED OF THE RBAC ENGINE"};
  for (const EscalationPath& path : escalation_paths()) {
    practices.rows.push_back(
        {path.docs_item.empty() ? std::string("(beyond the page)") : std::string(path.docs_item),
         std::string(path.id), std::string(path.check), requests_text(path)});
  }
  for (const UncoveredPractice& u : uncovered_practices())
    practices.rows.push_back({std::string(u.docs_item), "", "none", std::string(u.reason)});
  out += render_markdown_table(practices);
  out += "\n## The checks\n";
  for (const Check* check : all_checks()) {
    out += fmt::format("\n### {}\n\n{}\n\n{} Severity: {}; impact: {}.\n\n**Fix:** {}\n", check->id,
                       check->description, check->rationale, severity_range(*check),
                       impact_name(check->impact), check->fix);
  }
  return out;
}

}  // namespace footprint
