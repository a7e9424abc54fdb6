// What the OLM renderer's files share (olm_render.cc, olm_certificates.cc).
#pragma once

#include <string>
#include <string_view>

#include "load/yaml_writer.h"

namespace footprint {

// OLM v0's ServiceName, which OLM v1 keeps: `<deployment>-service`, dots replaced.
std::string service_name(std::string_view deployment);

// Mounts the serving certificate's Secret (`<service>-cert`) where controller-runtime reads it,
// in every container of the pod template, replacing what was mounted there.
void add_webhook_cert_volume(yaml::Value& pod_template, const std::string& deployment);

}  // namespace footprint
