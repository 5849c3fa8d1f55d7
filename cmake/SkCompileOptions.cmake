# SkCompileOptions: sk_target_options(<target>) applies warnings, -Werror and sanitizers to our targets only
set(SK_WARNING_FLAGS -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes
  -Wwrite-strings -Wcast-align -Wvla -Wno-unused-parameter)
function(sk_target_options tgt)
  if(SK_WARNINGS)
    target_compile_options(${tgt} PRIVATE ${SK_WARNING_FLAGS})
  endif()
  if(SK_WERROR)
    target_compile_options(${tgt} PRIVATE -Werror)
  endif()
  # source paths in messages are relative to the project root
  target_compile_options(${tgt} PRIVATE -fmacro-prefix-map=${PROJECT_SOURCE_DIR}/=)
endfunction()
if(SK_SANITIZE)
  add_compile_options(-fsanitize=${SK_SANITIZE} -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${SK_SANITIZE})
endif()
# SK_FUZZ: coverage instrumentation for libFuzzer everywhere; the fuzz targets link -fsanitize=fuzzer
if(SK_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "SK_FUZZ=ON needs clang (CC=clang-14): libFuzzer is part of clang")
  endif()
  # the instrumented loops of the SIMD pragmas (backends/nvector_fast.c) cannot be vectorized:
  # clang says so with -Wpass-failed, a note on speed, not on the code
  add_compile_options(-fsanitize=fuzzer-no-link -Wno-pass-failed)
endif()
