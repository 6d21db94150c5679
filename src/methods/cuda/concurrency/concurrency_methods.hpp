#pragma once
// Several transfers at once (methods_concurrency.cpp): factories; register.cpp adds them.
#include <memory>

#include "methods/characterizer.hpp"

namespace hwcomm::cuda {

std::unique_ptr<Characterizer> make_all_to_host();
std::unique_ptr<Characterizer> make_host_to_all();
std::unique_ptr<Characterizer> make_all_to_one();
std::unique_ptr<Characterizer> make_one_to_all();
std::unique_ptr<Characterizer> make_pairs_sharing_a_link();

}  // namespace hwcomm::cuda
