/* src/io/config_yaml.c: YAML config files (libyaml event parser) fed into the options database */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <yaml.h>

#include "core/error.h"
#include "core/input_file.h"
#include "stiffkit/config.h"

/* A key already given in this file: its dotted path, the mapping it sits in
 * and whether it holds a value (leaf) or a mapping. */
typedef struct {
  char *path;
  int frame;
  int leaf;
  int line, column;
} seen_key;

typedef struct {
  sk_options *opts;
  sk_context *ctx;
  const char *name;          /* file name for origins and messages */
  const unsigned char *text; /* the whole file */
  size_t len;
  yaml_parser_t parser;
  char *path; /* dotted key of the current entry */
  size_t plen, pcap;
  seen_key *seen;
  size_t nseen, capseen;
  int frames; /* mappings opened so far (frame ids) */
} loader;

static int mark_line(yaml_mark_t m)
{
  return (int)m.line + 1;
}

static int mark_column(yaml_mark_t m)
{
  return (int)m.column + 1;
}

static sk_option_origin origin_at(const loader *L, yaml_mark_t m)
{
  sk_option_origin o = {L->name, mark_line(m), mark_column(m), 0};
  return o;
}

static const char *event_kind(yaml_event_type_t t)
{
  switch (t) {
  case YAML_SCALAR_EVENT:
    return "a scalar";
  case YAML_SEQUENCE_START_EVENT:
    return "a sequence";
  case YAML_MAPPING_START_EVENT:
    return "a mapping";
  case YAML_ALIAS_EVENT:
    return "an alias";
  default:
    return "an unexpected YAML event";
  }
}

/* Record the parser's syntax error with its position. */
static sk_status syntax_error(const loader *L, const yaml_parser_t *p)
{
  const char *problem = p->problem ? p->problem : "unknown problem";
  switch (p->error) {
  case YAML_MEMORY_ERROR:
    return SK_ERROR(L->ctx, SK_ERR_NOMEM, "%s: out of memory while parsing YAML", L->name);
  case YAML_READER_ERROR: {
    /* no mark: find line and column of the byte offset */
    size_t off = p->problem_offset < L->len ? p->problem_offset : L->len;
    size_t line = 1, col = 1;
    for (size_t i = 0; i < off; i++) {
      if (L->text[i] == '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
    }
    if (p->problem_value != -1) {
      return SK_ERROR(L->ctx, SK_ERR_INPUT, "%s:%zu:%zu: YAML syntax error: %s (byte 0x%02x)",
                      L->name, line, col, problem, (unsigned)p->problem_value & 0xffu);
    }
    return SK_ERROR(L->ctx, SK_ERR_INPUT, "%s:%zu:%zu: YAML syntax error: %s", L->name, line, col,
                    problem);
  }
  case YAML_SCANNER_ERROR:
  case YAML_PARSER_ERROR:
    if (p->context) {
      return SK_ERROR(L->ctx, SK_ERR_INPUT, "%s:%d:%d: YAML syntax error: %s (%s at %d:%d)",
                      L->name, mark_line(p->problem_mark), mark_column(p->problem_mark), problem,
                      p->context, mark_line(p->context_mark), mark_column(p->context_mark));
    }
    return SK_ERROR(L->ctx, SK_ERR_INPUT, "%s:%d:%d: YAML syntax error: %s", L->name,
                    mark_line(p->problem_mark), mark_column(p->problem_mark), problem);
  default:
    return SK_ERROR(L->ctx, SK_ERR_INPUT, "%s: YAML error: %s", L->name, problem);
  }
}

static sk_status next_event(loader *L, yaml_event_t *ev)
{
  if (!yaml_parser_parse(&L->parser, ev)) {
    memset(ev, 0, sizeof *ev);
    return syntax_error(L, &L->parser);
  }
  return SK_OK;
}

static sk_status located(const loader *L, sk_status code, yaml_mark_t m, const char *what)
{
  return SK_ERROR(L->ctx, code, "%s:%d:%d: %s", L->name, mark_line(m), mark_column(m), what);
}

static sk_status anchors_error(const loader *L, yaml_mark_t m)
{
  return located(L, SK_ERR_INPUT, m, "anchors and aliases are not supported in config files");
}

/* Append ".key" (or "key" at the top) to the current path. */
static sk_status path_push(loader *L, const char *key, size_t n)
{
  size_t need = L->plen + (L->plen ? 1 : 0) + n + 1;
  if (need > L->pcap) {
    size_t cap = L->pcap ? L->pcap : 64;
    while (cap < need) {
      cap *= 2;
    }
    char *grown = sk__malloc(L->ctx, cap);
    SK_CHECK(L->ctx, grown != NULL, SK_ERR_NOMEM, "%s: out of memory", L->name);
    if (L->plen) {
      memcpy(grown, L->path, L->plen);
    }
    sk__free(L->ctx, L->path);
    L->path = grown;
    L->pcap = cap;
  }
  if (L->plen) {
    L->path[L->plen++] = '.';
  }
  memcpy(L->path + L->plen, key, n);
  L->plen += n;
  L->path[L->plen] = '\0';
  return SK_OK;
}

static void path_pop(loader *L, size_t len)
{
  L->plen = len;
  if (L->path) {
    L->path[len] = '\0';
  }
}

/* Reject a key given twice: the same path in the same mapping, or the same
 * leaf anywhere in the file (a key and its retired name are one key: the
 * paths are remembered under their present names). Otherwise remember it. */
static sk_status check_duplicate(loader *L, int frame, int leaf, yaml_mark_t m)
{
  char now[256];
  const char *path = sk_options_current_key(L->path, now, sizeof now);
  for (size_t i = 0; i < L->nseen; i++) {
    const seen_key *s = &L->seen[i];
    if ((s->frame == frame || (leaf && s->leaf)) && strcmp(s->path, path) == 0) {
      return SK_ERROR(L->ctx, SK_ERR_INPUT,
                      "%s:%d:%d: duplicate key '%s' (first given at line %d, column %d)", L->name,
                      mark_line(m), mark_column(m), L->path, s->line, s->column);
    }
  }
  if (L->nseen == L->capseen) {
    size_t cap = L->capseen ? 2 * L->capseen : 32;
    seen_key *grown = sk__malloc(L->ctx, cap * sizeof *grown);
    SK_CHECK(L->ctx, grown != NULL, SK_ERR_NOMEM, "%s: out of memory", L->name);
    if (L->nseen) {
      memcpy(grown, L->seen, L->nseen * sizeof *grown);
    }
    sk__free(L->ctx, L->seen);
    L->seen = grown;
    L->capseen = cap;
  }
  const size_t len = strlen(path);
  char *copy = sk__malloc(L->ctx, len + 1);
  SK_CHECK(L->ctx, copy != NULL, SK_ERR_NOMEM, "%s: out of memory", L->name);
  memcpy(copy, path, len + 1);
  seen_key *s = &L->seen[L->nseen++];
  s->path = copy;
  s->frame = frame;
  s->leaf = leaf;
  s->line = mark_line(m);
  s->column = mark_column(m);
  return SK_OK;
}

static int has_nul(const yaml_event_t *ev)
{
  return strlen((const char *)ev->data.scalar.value) != ev->data.scalar.length;
}

/* After SEQUENCE_START of a list key: collect the scalar items and set them. */
static sk_status load_sequence(loader *L, const sk_option_origin *vorig)
{
  char **items = NULL;
  size_t n = 0, cap = 0;
  sk_status st = SK_OK;
  for (;;) {
    yaml_event_t ev;
    st = next_event(L, &ev);
    if (st != SK_OK) {
      break;
    }
    if (ev.type == YAML_SEQUENCE_END_EVENT) {
      yaml_event_delete(&ev);
      break;
    }
    if (ev.type == YAML_ALIAS_EVENT || (ev.type == YAML_SCALAR_EVENT && ev.data.scalar.anchor)) {
      st = anchors_error(L, ev.start_mark);
    } else if (ev.type != YAML_SCALAR_EVENT) {
      st = SK_ERROR(
          L->ctx, SK_ERR_INPUT, "%s:%d:%d: %s: list items must be single values, got %s", L->name,
          mark_line(ev.start_mark), mark_column(ev.start_mark), L->path, event_kind(ev.type));
    } else if (has_nul(&ev)) {
      st = located(L, SK_ERR_INPUT, ev.start_mark, "value contains a NUL character");
    } else {
      if (n == cap) {
        size_t ncap = cap ? 2 * cap : 8;
        char **grown = sk__malloc(L->ctx, ncap * sizeof *grown);
        if (!grown) {
          st = SK_ERROR(L->ctx, SK_ERR_NOMEM, "%s: out of memory", L->name);
        } else {
          if (n) {
            memcpy(grown, items, n * sizeof *grown);
          }
          sk__free(L->ctx, items);
          items = grown;
          cap = ncap;
        }
      }
      if (st == SK_OK) {
        size_t len = ev.data.scalar.length;
        items[n] = sk__malloc(L->ctx, len + 1);
        if (!items[n]) {
          st = SK_ERROR(L->ctx, SK_ERR_NOMEM, "%s: out of memory", L->name);
        } else {
          memcpy(items[n], ev.data.scalar.value, len + 1);
          n++;
        }
      }
    }
    yaml_event_delete(&ev);
    if (st != SK_OK) {
      break;
    }
  }
  if (st == SK_OK) {
    st = sk_options_set_list(L->opts, L->path, (const char *const *)items, n, vorig);
  }
  for (size_t i = 0; i < n; i++) {
    sk__free(L->ctx, items[i]);
  }
  sk__free(L->ctx, items);
  return st;
}

static sk_status load_mapping(loader *L, int depth, size_t *count);

/* The value of the entry whose (already pushed) key sits at key_mark. */
static sk_status load_value(loader *L, yaml_mark_t key_mark, int depth, int frame)
{
  yaml_event_t ev;
  SK_CALL(L->ctx, next_event(L, &ev));
  sk_option_origin korig = origin_at(L, key_mark);
  sk_option_origin vorig = origin_at(L, ev.start_mark);
  /* a key of a deferred section (plugin parameters) counts as a key until its mapping says otherwise */
  const int is_registered = sk_options_is_key(L->opts, L->path);
  int is_key = is_registered || sk_options_is_deferred(L->opts, L->path);
  int is_section = sk_options_is_section(L->opts, L->path);
  /* unknown keys point at the key, bad values at the value */
  const sk_option_origin *where = (is_key || is_section) ? &vorig : &korig;
  sk_status st = SK_OK;
  switch (ev.type) {
  case YAML_SCALAR_EVENT:
    if (ev.data.scalar.anchor) {
      st = anchors_error(L, ev.start_mark);
    } else if (has_nul(&ev)) {
      st = located(L, SK_ERR_INPUT, ev.start_mark, "value contains a NUL character");
    } else {
      st = check_duplicate(L, frame, 1, key_mark);
      if (st == SK_OK) {
        st = sk_options_set(L->opts, L->path, (const char *)ev.data.scalar.value, where);
      }
    }
    break;
  case YAML_SEQUENCE_START_EVENT:
    if (ev.data.sequence_start.anchor) {
      st = anchors_error(L, ev.start_mark);
    } else if (depth + 1 > SK_CONFIG_MAX_DEPTH) {
      st = SK_ERROR(L->ctx, SK_ERR_INPUT,
                    "%s:%d:%d: nesting deeper than %d levels (limit exceeded)", L->name,
                    vorig.line, vorig.column, SK_CONFIG_MAX_DEPTH);
    } else {
      st = check_duplicate(L, frame, 1, key_mark);
      if (st == SK_OK && !is_key) {
        st = sk_options_set_list(L->opts, L->path, NULL, 0, where);
      } else if (st == SK_OK) {
        st = load_sequence(L, &vorig);
      }
    }
    break;
  case YAML_MAPPING_START_EVENT:
    if (ev.data.mapping_start.anchor) {
      st = anchors_error(L, ev.start_mark);
    } else if (depth + 1 > SK_CONFIG_MAX_DEPTH) {
      st = SK_ERROR(L->ctx, SK_ERR_INPUT,
                    "%s:%d:%d: nesting deeper than %d levels (limit exceeded)", L->name,
                    vorig.line, vorig.column, SK_CONFIG_MAX_DEPTH);
    } else if (is_registered && !is_section) {
      st = SK_ERROR(L->ctx, SK_ERR_INPUT, "%s:%d:%d: %s: expected a single value, got a mapping",
                    L->name, vorig.line, vorig.column, L->path);
    } else {
      size_t n = 0;
      st = check_duplicate(L, frame, 0, key_mark);
      if (st == SK_OK) {
        st = load_mapping(L, depth + 1, &n);
      }
      if (st == SK_OK && n == 0 && !is_section) {
        st = sk_options_set(L->opts, L->path, "", &korig); /* reports the unknown key */
      }
    }
    break;
  case YAML_ALIAS_EVENT:
    st = anchors_error(L, ev.start_mark);
    break;
  default:
    st = located(L, SK_ERR_INTERNAL, ev.start_mark, "unexpected YAML event");
    break;
  }
  yaml_event_delete(&ev);
  return st;
}

/* After MAPPING_START: every "key: value" entry until MAPPING_END. */
static sk_status load_mapping(loader *L, int depth, size_t *count)
{
  int frame = ++L->frames;
  for (;;) {
    yaml_event_t ev;
    SK_CALL(L->ctx, next_event(L, &ev));
    if (ev.type == YAML_MAPPING_END_EVENT) {
      yaml_event_delete(&ev);
      return SK_OK;
    }
    sk_status st = SK_OK;
    if (ev.type == YAML_ALIAS_EVENT || (ev.type == YAML_SCALAR_EVENT && ev.data.scalar.anchor)) {
      st = anchors_error(L, ev.start_mark);
    } else if (ev.type != YAML_SCALAR_EVENT) {
      st = SK_ERROR(L->ctx, SK_ERR_INPUT, "%s:%d:%d: a key must be a plain name, got %s", L->name,
                    mark_line(ev.start_mark), mark_column(ev.start_mark), event_kind(ev.type));
    } else if (ev.data.scalar.length == 0) {
      st = located(L, SK_ERR_INPUT, ev.start_mark, "empty key");
    } else if (has_nul(&ev)) {
      st = located(L, SK_ERR_INPUT, ev.start_mark, "key contains a NUL character");
    }
    size_t saved = L->plen;
    yaml_mark_t key_mark = ev.start_mark;
    if (st == SK_OK) {
      st = path_push(L, (const char *)ev.data.scalar.value, ev.data.scalar.length);
    }
    yaml_event_delete(&ev);
    if (st == SK_OK) {
      (*count)++;
      st = load_value(L, key_mark, depth, frame);
    }
    path_pop(L, saved);
    if (st != SK_OK) {
      return st;
    }
  }
}

static int is_null_scalar(const yaml_event_t *ev)
{
  static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};
  if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) {
    return 0;
  }
  for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++) {
    if (strcmp((const char *)ev->data.scalar.value, nulls[i]) == 0) {
      return 1;
    }
  }
  return 0;
}

/* Expect an event of type t (anything else is an internal error: the
 * syntax pass has already accepted the stream). */
static sk_status expect(loader *L, yaml_event_type_t t)
{
  yaml_event_t ev;
  SK_CALL(L->ctx, next_event(L, &ev));
  sk_status st = SK_OK;
  if (ev.type != t) {
    st = located(L, SK_ERR_INTERNAL, ev.start_mark, "unexpected YAML event");
  }
  yaml_event_delete(&ev);
  return st;
}

/* The stream: nothing, or one document whose root is a mapping (or null). */
static sk_status load_stream(loader *L)
{
  yaml_event_t ev;
  SK_CALL(L->ctx, expect(L, YAML_STREAM_START_EVENT));
  SK_CALL(L->ctx, next_event(L, &ev));
  yaml_event_type_t t = ev.type;
  yaml_event_delete(&ev);
  if (t == YAML_STREAM_END_EVENT) {
    return SK_OK;
  }
  SK_CHECK(L->ctx, t == YAML_DOCUMENT_START_EVENT, SK_ERR_INTERNAL, "%s: unexpected YAML event",
           L->name);
  SK_CALL(L->ctx, next_event(L, &ev));
  sk_status st = SK_OK;
  int anchored = (ev.type == YAML_ALIAS_EVENT) ||
                 (ev.type == YAML_SCALAR_EVENT && ev.data.scalar.anchor) ||
                 (ev.type == YAML_MAPPING_START_EVENT && ev.data.mapping_start.anchor) ||
                 (ev.type == YAML_SEQUENCE_START_EVENT && ev.data.sequence_start.anchor);
  if (anchored) {
    st = anchors_error(L, ev.start_mark);
  } else if (ev.type == YAML_MAPPING_START_EVENT) {
    size_t n = 0;
    st = load_mapping(L, 1, &n);
  } else if (ev.type != YAML_SCALAR_EVENT || !is_null_scalar(&ev)) {
    st = SK_ERROR(L->ctx, SK_ERR_INPUT,
                  "%s:%d:%d: the top level of a config file must be a mapping of keys, got %s",
                  L->name, mark_line(ev.start_mark), mark_column(ev.start_mark),
                  event_kind(ev.type));
  }
  yaml_event_delete(&ev);
  if (st != SK_OK) {
    return st;
  }
  SK_CALL(L->ctx, expect(L, YAML_DOCUMENT_END_EVENT));
  SK_CALL(L->ctx, next_event(L, &ev));
  t = ev.type;
  yaml_mark_t m = ev.start_mark;
  yaml_event_delete(&ev);
  if (t == YAML_DOCUMENT_START_EVENT) {
    return located(L, SK_ERR_INPUT, m,
                   "a config file holds one YAML document; found a second one");
  }
  SK_CHECK(L->ctx, t == YAML_STREAM_END_EVENT, SK_ERR_INTERNAL, "%s: unexpected YAML event",
           L->name);
  return SK_OK;
}

/* First pass: the whole stream must parse, so syntax errors come before any set. */
static sk_status check_syntax(loader *L)
{
  yaml_parser_t p;
  SK_CHECK(L->ctx, yaml_parser_initialize(&p), SK_ERR_NOMEM, "%s: out of memory", L->name);
  yaml_parser_set_input_string(&p, L->text, L->len);
  sk_status st = SK_OK;
  int depth = 0;
  for (;;) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&p, &ev)) {
      st = syntax_error(L, &p);
      break;
    }
    /* libyaml's time grows with the square of the nesting: stop deep files early */
    depth += ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT;
    depth -= ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT;
    if (depth > SK_CONFIG_MAX_DEPTH) {
      st = SK_ERROR(L->ctx, SK_ERR_INPUT,
                    "%s:%d:%d: nesting deeper than %d levels (limit exceeded)", L->name,
                    mark_line(ev.start_mark), mark_column(ev.start_mark), SK_CONFIG_MAX_DEPTH);
      yaml_event_delete(&ev);
      break;
    }
    int done = ev.type == YAML_STREAM_END_EVENT;
    yaml_event_delete(&ev);
    if (done) {
      break;
    }
  }
  yaml_parser_delete(&p);
  return st;
}

sk_status sk_config_load_buffer(sk_options *opts, const char *name, const char *text, size_t len)
{
  sk_context *ctx = sk_options_get_context(opts);
  SK_CHECK(ctx, opts && name && (text || len == 0), SK_ERR_ARG,
           "sk_config_load_buffer: NULL argument");
  SK_CHECK(ctx, len <= SK_CONFIG_MAX_BYTES, SK_ERR_INPUT,
           "%s: config file larger than %zu bytes (limit exceeded)", name,
           (size_t)SK_CONFIG_MAX_BYTES);
  loader L;
  memset(&L, 0, sizeof L);
  L.opts = opts;
  L.ctx = ctx;
  L.name = name;
  L.text = (const unsigned char *)(text ? text : "");
  L.len = len;
  sk_status st = check_syntax(&L);
  if (st == SK_OK) {
    if (!yaml_parser_initialize(&L.parser)) {
      st = SK_ERROR(ctx, SK_ERR_NOMEM, "%s: out of memory", name);
    } else {
      yaml_parser_set_input_string(&L.parser, L.text, L.len);
      st = load_stream(&L);
      yaml_parser_delete(&L.parser);
    }
  }
  for (size_t i = 0; i < L.nseen; i++) {
    sk__free(ctx, L.seen[i].path);
  }
  sk__free(ctx, L.seen);
  sk__free(ctx, L.path);
  if (st < 0) {
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
  }
  return st;
}

sk_status sk_config_load(sk_options *opts, const char *path)
{
  sk_context *ctx = sk_options_get_context(opts);
  SK_CHECK(ctx, opts && path, SK_ERR_ARG, "sk_config_load: NULL argument");
  FILE *f = NULL;
  const sk_status opened = sk__input_open(ctx, path, "config file", SK_CONFIG_MAX_BYTES, &f);
  if (opened != SK_OK) { /* SK_INTERRUPTED too, which SK_CALL lets pass */
    return opened;
  }
  size_t cap = 1u << 16, len = 0;
  char *buf = sk__malloc(ctx, cap);
  if (!buf) {
    fclose(f);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot read config file '%s': out of memory", path);
  }
  sk_status st = SK_OK;
  for (;;) {
    errno = 0;
    size_t got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0 || len < cap) {
      if (ferror(f)) {
        int err = errno;
        st = SK_ERROR(ctx, SK_ERR_MISSING, "cannot read config file '%s': %s", path,
                      strerror(err ? err : EIO));
        break;
      }
      if (feof(f)) {
        break;
      }
      continue;
    }
    if (len > SK_CONFIG_MAX_BYTES) {
      st = SK_ERROR(ctx, SK_ERR_INPUT, "%s: config file larger than %zu bytes (limit exceeded)",
                    path, (size_t)SK_CONFIG_MAX_BYTES);
      break;
    }
    size_t ncap = 2 * cap > SK_CONFIG_MAX_BYTES + 1 ? SK_CONFIG_MAX_BYTES + 1 : 2 * cap;
    char *grown = sk__malloc(ctx, ncap);
    if (!grown) {
      st = SK_ERROR(ctx, SK_ERR_NOMEM, "cannot read config file '%s': out of memory", path);
      break;
    }
    memcpy(grown, buf, len);
    sk__free(ctx, buf);
    buf = grown;
    cap = ncap;
  }
  sk__input_close(f);
  if (st == SK_OK) {
    st = sk_config_load_buffer(opts, path, buf, len);
  }
  sk__free(ctx, buf);
  return st;
}
