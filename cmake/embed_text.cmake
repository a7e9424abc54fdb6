# Writes OUTPUT, a C++ file defining `extern const std::string_view SYMBOL` with INPUT's text.
file(READ ${INPUT} content)
set(delimiter "fp_embed")
file(WRITE ${OUTPUT}
  "// Generated from ${INPUT}; do not edit.\n"
  "#include <string_view>\n"
  "namespace footprint {\n"
  "extern const std::string_view ${SYMBOL};\n"
  "const std::string_view ${SYMBOL} = R\"${delimiter}(${content})${delimiter}\";\n"
  "}  // namespace footprint\n")
