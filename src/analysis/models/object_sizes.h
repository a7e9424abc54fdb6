// Object sizes against the API server's, etcd's and client-side apply's limits. The Context
// builds them once (Context::sizes); the size checks and the CRDs report section read them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/kubectl_json.h"
#include "model/object.h"

namespace footprint {

// apimachinery's TotalAnnotationSizeLimitB: the sum of len(key) + len(value) over annotations.
constexpr uint64_t kAnnotationLimit = uint64_t{256} * 1024;
// The API server's default MaxRequestBodyBytes ("Request entity too large: limit is 3145728").
constexpr uint64_t kRequestBodyLimit = uint64_t{3} * 1024 * 1024;
// etcd's default --max-request-bytes.
constexpr uint64_t kEtcdRequestLimit = uint64_t{3} * 512 * 1024;
// Kubernetes' MaxSecretSize (pkg/apis/core/types.go): ValidateSecret and ValidateConfigMap
// (pkg/apis/core/validation/validation.go) reject data whose values total more.
constexpr uint64_t kMaxSecretSize = uint64_t{1024} * 1024;
// "Near" a limit: at least 90 % of it.
constexpr uint64_t kNearPercent = 90;

bool near_limit(uint64_t value, uint64_t limit);

struct ObjectSize {
  const Object* object = nullptr;
  uint64_t yaml_bytes = 0;
  std::optional<ApplySizes> sizes;  // nullopt when kubectl cannot encode the object
  std::string error;                // why, with the position
  yaml::Position error_at;          // the value kubectl cannot encode
  // ConfigMaps and Secrets: the bytes the API server's validation sums against kMaxSecretSize
  // (decoded values of data, binaryData and stringData).
  std::optional<uint64_t> data_bytes;
};

// True for a ConfigMap or Secret the API server refuses to store, whatever the client.
bool data_over_limit(const ObjectSize& size);

// Sizes of every object, in input order.
std::vector<ObjectSize> object_sizes(const Bundle& bundle);

// True for an object that reaches 90 % of a limit it is checked against.
bool size_needs_attention(const ObjectSize& size);

}  // namespace footprint
