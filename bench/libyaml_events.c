/* Baseline for bench/run: libyaml's own event parse of each file, read whole into memory first as
   footprint reads it; no tree, no objects. The floor a libyaml-based parser sets.
   Prints the number of events. Usage: libyaml_events FILE... */
#include <stdio.h>
#include <stdlib.h>
#include <yaml.h>

static unsigned char* read_file(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char* data = malloc(n > 0 ? (size_t)n : 1);
  *size = data ? fread(data, 1, (size_t)n, f) : 0;
  fclose(f);
  return data;
}

int main(int argc, char** argv) {
  unsigned long long events = 0;
  for (int i = 1; i < argc; ++i) {
    size_t size = 0;
    unsigned char* data = read_file(argv[i], &size);
    if (!data) {
      fprintf(stderr, "libyaml_events: cannot read %s\n", argv[i]);
      return 2;
    }
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, data, size);
    for (int done = 0; !done;) {
      yaml_event_t event;
      if (!yaml_parser_parse(&parser, &event)) {
        fprintf(stderr, "libyaml_events: %s:%zu: %s\n", argv[i], parser.problem_mark.line + 1,
                parser.problem ? parser.problem : "parse error");
        return 2;
      }
      done = event.type == YAML_STREAM_END_EVENT;
      yaml_event_delete(&event);
      ++events;
    }
    yaml_parser_delete(&parser);
    free(data);
  }
  printf("%llu\n", events);
  return 0;
}
