# Included by the top-level CMakeLists.txt before src/ when HWCOMM_FUZZ=ON:
# everything is instrumented for libFuzzer's coverage and built with
# AddressSanitizer and UBSan, so a finding anywhere in our code is a crash.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "HWCOMM_FUZZ=ON needs clang (libFuzzer): configure with CXX=clang++")
endif()
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
                    -fno-omit-frame-pointer -g)
add_link_options(-fsanitize=address,undefined)
