#pragma once
// Stable GPU ids. Every GPU is renamed gpu<K>, K being, in this order of
// preference: the CUDA ordinal when every GPU has one (the CUDA runtime's order,
// CUDA_DEVICE_ORDER=FASTEST_FIRST by default), else the NVML index when every
// GPU has one (nvidia-smi's order, PCI bus order in practice), else the rank of
// the GPU's PCI address. The matrix (nvidia-smi layout) always uses NVML/PCI order.
#include <map>
#include <string>

#include "core/graph.hpp"

namespace hwcomm {

// Renames vertices (old id -> new id) and every edge end; new ids may swap
// with old ones. Throws std::invalid_argument on a clash with an untouched vertex.
void rename_vertices(Graph& graph, const std::map<std::string, std::string>& renames);

// For a description of another machine (XML export, saved tree) in which no
// GPU has a CUDA ordinal: gives NVIDIA GPUs the ordinals CUDA would give them
// when they are alike (PCI bus id order), marks them (attr
// "cuda_ordinal_inferred") and says so in a note. Returns how many it gave.
int infer_cuda_ordinals(Graph& graph);

// Returns which order was used: "cuda", "nvml" or "pci".
std::string assign_gpu_ids(Graph& graph);

}  // namespace hwcomm
