/*
 * json_rows(template, lookups, most, value, ...): an aggregate SQL function that writes a
 * JSON array of objects, one per row, in the order the rows come (jsonRows in
 * src/db/sql-json.ts).
 *
 * Why C: a user's month of time entries (~550 rows) written by format() and joined by
 * group_concat spent most of its time in SQLite's interpreter moving each value through
 * a function call, and about a quarter of it looking up the same few names (a username,
 * project slugs, activity slugs) by primary key once per row. Here each row's values go
 * straight into one buffer, and each name is looked up once per list.
 *
 * template   the object, with one directive per value, in the order of the values:
 *              %s  the value as it is: a number, or text that is JSON already; NULL is null
 *              %q  the value as json_quote() writes it: text as a JSON string (escaped
 *                  byte for byte as SQLite escapes it), a number as it is, NULL as null
 *              %1 … %9  the value is an integer key: the JSON text that lookup N (below)
 *                  gives for it (NULL or no row: null; the triggers of sql/ give every
 *                  key its row, and `admin check` reports an entry whose row is missing)
 *              %%  a percent sign
 * lookups    SQL statements separated by ';', each taking the key as ?1 and answering
 *            one column of JSON text. Their answers are remembered for the rest of the
 *            list; on a read-only connection also for later lists, for as long as
 *            nothing is written to the database by anyone (SQLITE_FCNTL_DATA_VERSION, the
 *            same counter as PRAGMA data_version, moves with every commit of any
 *            connection or process): a cached name is never one the snapshot would not
 *            read itself.
 * most       the most rows the list may have, or NULL for no limit. One row more stops
 *            the statement with the error MORE_ROWS (below): a list read whole is
 *            counted by the same pass that writes it (count(*) beside it), and one too
 *            long to be read whole (it is paged instead) costs no more than counting it.
 *
 * The template, lookups and most are read from the first row: they are constants of the
 * statement. The result is a BLOB ('[]' for no rows), ready to be sent as it is.
 *
 * The result is lent, not given: SQLite copies a result that has a destructor once more
 * (OP_Copy makes the aggregate's result the row's own), which for a user's month (~170
 * KB) was ~15 % of the statement. A result up to LEND_MOST bytes is passed as
 * SQLITE_STATIC instead, out of a buffer the connection keeps (Cache.lent), and the next
 * call writes its output into that same buffer once nothing can read the last result
 * any more: once every statement that was running when it was lent has been reset (or
 * stepped past that run). Until then a call writes into a buffer of its own and gives
 * its result to SQLite as before, so two results in one row (two subqueries) or the rows
 * of a GROUP BY are each their own.
 */
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT1
#include <string.h>

#define MAX_LOOKUPS 9
/* Names remembered per lookup at most; past it the map starts again (bounds memory). */
#define MAX_REMEMBERED 65536
/* The largest result lent (above): a longer one is given, so a connection keeps at most this. */
#define LEND_MOST (1 << 20)
/* The running statements a lent result waits for, at most; with more it is given instead. */
#define MAX_RUNNING 8
/* The error of a list with more rows than `most` (MORE_ROWS in src/db/sql-json.ts). */
#define MORE_ROWS "json_rows: more rows than the most asked for"

typedef struct {
  char *b;
  sqlite3_int64 n, cap;
} Buf;

typedef struct {
  sqlite3_int64 key;
  sqlite3_int64 off; /* into the lookup's text; -1: the answer is null */
  int len;
  int used;
} Slot;

typedef struct {
  Slot *slots;
  int cap, count;
  Buf text; /* the remembered answers, one after the other */
} Names;

/* A statement of the connection in one of its runs (SQLITE_STMTSTATUS_RUN). */
typedef struct {
  sqlite3_stmt *stmt;
  int run;
} Running;

/*
 * Per connection: the names of read-only connections, kept across lists; the buffer of
 * the result lent last, and the statements that were running when it was lent.
 */
typedef struct {
  sqlite3_int64 version; /* the data version they were read at */
  char *lookups;          /* the lookups' SQL they answer */
  Names names[MAX_LOOKUPS];
  Buf lent;
  int nrunning;
  Running running[MAX_RUNNING];
} Cache;

/*
 * The template split into pieces, once per call: a text, then the directive of the value
 * that follows it, or 0 for none (after the last text, and after a text that ends with
 * the one % that a %% writes).
 */
typedef struct {
  int textOff, textLen;
  char directive;
} Piece;

/* Per call: the output, the lookups' statements, the names in use. */
typedef struct {
  Buf out;
  int rows;
  sqlite3_int64 most; /* -1: no limit */
  int failed; /* an error was set; the rest of the rows are skipped */
  int started;
  int nlookups;
  const char *lookupSql[MAX_LOOKUPS];
  int lookupLen[MAX_LOOKUPS];
  sqlite3_stmt *stmt[MAX_LOOKUPS];
  Names own[MAX_LOOKUPS]; /* a writable connection's names: this call only */
  Names *names;           /* own, or the connection's cache */
  char *lookupsCopy;      /* the lookups text, kept while the call runs */
  char *template;         /* the template, kept while the call runs */
  Piece *pieces;          /* the template, split once per call (compile) */
  int npieces;
} Call;

/* The run a running statement is in; 0 when it is not running. */
static int runOf(sqlite3_stmt *stmt) {
  return sqlite3_stmt_busy(stmt) ? sqlite3_stmt_status(stmt, SQLITE_STMTSTATUS_RUN, 0) : 0;
}

/* Whether SQLite may still read the result lent last: a statement is still in that run. */
static int lentInUse(sqlite3 *db, const Cache *cache) {
  if (!cache->lent.b) return 0;
  for (sqlite3_stmt *s = sqlite3_next_stmt(db, NULL); s; s = sqlite3_next_stmt(db, s)) {
    for (int i = 0; i < cache->nrunning; i++) {
      if (s == cache->running[i].stmt && runOf(s) == cache->running[i].run) return 1;
    }
  }
  return 0;
}

/*
 * Lends `out` as the result (see the top) when nothing can read the last one any more and
 * it is short enough; 0 when it cannot be lent (the caller gives it instead).
 */
static int lend(sqlite3_context *ctx, Cache *cache, Buf *out) {
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  if (out->cap > LEND_MOST || lentInUse(db, cache)) return 0;
  Running running[MAX_RUNNING];
  int n = 0;
  for (sqlite3_stmt *s = sqlite3_next_stmt(db, NULL); s; s = sqlite3_next_stmt(db, s)) {
    int run = runOf(s);
    if (!run) continue;
    if (n == MAX_RUNNING) return 0;
    running[n++] = (Running){s, run};
  }
  memcpy(cache->running, running, sizeof(Running) * (size_t)n);
  cache->nrunning = n;
  sqlite3_free(cache->lent.b);
  cache->lent = *out;
  *out = (Buf){0};
  sqlite3_result_blob64(ctx, cache->lent.b, (sqlite3_uint64)cache->lent.n, SQLITE_STATIC);
  return 1;
}

static int reserve(Buf *b, sqlite3_int64 more) {
  if (b->n + more <= b->cap) return 1;
  sqlite3_int64 cap = b->cap ? b->cap * 2 : 65536;
  while (cap < b->n + more) cap *= 2;
  char *grown = sqlite3_realloc64(b->b, (sqlite3_uint64)cap);
  if (!grown) return 0;
  b->b = grown;
  b->cap = cap;
  return 1;
}

static inline int put(Buf *b, const void *s, sqlite3_int64 n) {
  if (b->n + n > b->cap && !reserve(b, n)) return 0;
  if (n) memcpy(b->b + b->n, s, (size_t)n);
  b->n += n;
  return 1;
}

static const char HEX[] = "0123456789abcdef";

/* Text as a JSON string, escaped as SQLite's json_quote() escapes it. */
static int putQuoted(Buf *b, const unsigned char *s, int n) {
  int plain = 0; /* the common case: nothing to escape, one copy */
  while (plain < n && s[plain] >= 0x20 && s[plain] != '"' && s[plain] != '\\') plain++;
  if (plain == n) {
    if (!reserve(b, (sqlite3_int64)n + 2)) return 0;
    b->b[b->n] = '"';
    memcpy(b->b + b->n + 1, s, (size_t)n);
    b->b[b->n + 1 + n] = '"';
    b->n += n + 2;
    return 1;
  }
  if (!reserve(b, (sqlite3_int64)n * 6 + 2)) return 0;
  char *o = b->b + b->n;
  *o++ = '"';
  for (int i = 0; i < n; i++) {
    unsigned char c = s[i];
    if (c == '"' || c == '\\') {
      *o++ = '\\';
      *o++ = (char)c;
    } else if (c < 0x20) {
      *o++ = '\\';
      switch (c) {
        case '\b': *o++ = 'b'; break;
        case '\f': *o++ = 'f'; break;
        case '\n': *o++ = 'n'; break;
        case '\r': *o++ = 'r'; break;
        case '\t': *o++ = 't'; break;
        default:
          *o++ = 'u'; *o++ = '0'; *o++ = '0';
          *o++ = HEX[c >> 4];
          *o++ = HEX[c & 15];
      }
    } else {
      *o++ = (char)c;
    }
  }
  *o++ = '"';
  b->n = o - b->b;
  return 1;
}

static int putValue(Buf *b, sqlite3_value *v) {
  switch (sqlite3_value_type(v)) {
    case SQLITE_NULL: return put(b, "null", 4);
    case SQLITE_INTEGER: {
      /* By hand: snprintf took a tenth of the time of a month's list. */
      char num[24];
      char *end = num + sizeof num, *o = end;
      sqlite3_int64 i = sqlite3_value_int64(v);
      sqlite3_uint64 u = i < 0 ? 0 - (sqlite3_uint64)i : (sqlite3_uint64)i;
      do *--o = (char)('0' + u % 10); while (u /= 10);
      if (i < 0) *--o = '-';
      return put(b, o, end - o);
    }
    default: return put(b, sqlite3_value_text(v), sqlite3_value_bytes(v));
  }
}

static void forget(Names *m) {
  sqlite3_free(m->slots);
  sqlite3_free(m->text.b);
  memset(m, 0, sizeof *m);
}

static unsigned slotOf(sqlite3_int64 key, int cap) {
  return (unsigned)(((sqlite3_uint64)key * 0x9E3779B97F4A7C15ull) >> 32) & (unsigned)(cap - 1);
}

/* The slot for key: its answer if it has one (used), else where it goes. NULL: no memory. */
static Slot *slotFor(Names *m, sqlite3_int64 key) {
  if (m->count >= MAX_REMEMBERED) forget(m);
  if ((m->count + 1) * 2 > m->cap) {
    int cap = m->cap ? m->cap * 2 : 64;
    Slot *slots = sqlite3_malloc64(sizeof(Slot) * (sqlite3_uint64)cap);
    if (!slots) return NULL;
    memset(slots, 0, sizeof(Slot) * (size_t)cap);
    for (int i = 0; i < m->cap; i++) {
      if (!m->slots[i].used) continue;
      unsigned h = slotOf(m->slots[i].key, cap);
      while (slots[h].used) h = (h + 1) & (unsigned)(cap - 1);
      slots[h] = m->slots[i];
    }
    sqlite3_free(m->slots);
    m->slots = slots;
    m->cap = cap;
  }
  unsigned h = slotOf(key, m->cap);
  while (m->slots[h].used && m->slots[h].key != key) h = (h + 1) & (unsigned)(m->cap - 1);
  return &m->slots[h];
}

static void fail(sqlite3_context *ctx, Call *c, const char *message) {
  if (message) sqlite3_result_error(ctx, message, -1);
  else sqlite3_result_error_nomem(ctx);
  c->failed = 1;
}

/* Writes lookup i's answer for key, looking it up (and remembering it) the first time. */
static int putName(sqlite3_context *ctx, Call *c, int i, sqlite3_int64 key) {
  Names *m = &c->names[i];
  Slot *s = slotFor(m, key);
  if (!s) return fail(ctx, c, NULL), 0;
  if (!s->used) {
    sqlite3 *db = sqlite3_context_db_handle(ctx);
    if (!c->stmt[i] &&
        sqlite3_prepare_v2(db, c->lookupSql[i], c->lookupLen[i], &c->stmt[i], NULL) != SQLITE_OK)
      return fail(ctx, c, sqlite3_errmsg(db)), 0;
    sqlite3_stmt *st = c->stmt[i];
    sqlite3_bind_int64(st, 1, key);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
      const unsigned char *text = sqlite3_column_text(st, 0);
      int len = sqlite3_column_bytes(st, 0);
      sqlite3_int64 off = m->text.n;
      if (!put(&m->text, text, len)) return sqlite3_reset(st), fail(ctx, c, NULL), 0;
      s->off = off;
      s->len = len;
    } else if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
      s->off = -1;
    } else {
      fail(ctx, c, sqlite3_errmsg(db));
      sqlite3_reset(st);
      return 0;
    }
    sqlite3_reset(st);
    s->used = 1;
    s->key = key;
    m->count++;
  }
  if (s->off < 0) return put(&c->out, "null", 4) || (fail(ctx, c, NULL), 0);
  return put(&c->out, m->text.b + s->off, s->len) || (fail(ctx, c, NULL), 0);
}

/* Splits the lookups and picks the names to use: the connection's, or the call's own. */
static int start(sqlite3_context *ctx, Call *c, sqlite3_value *lookups) {
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  const char *sql = (const char *)sqlite3_value_text(lookups);
  int len = sqlite3_value_bytes(lookups);
  c->lookupsCopy = sqlite3_malloc(len + 1);
  if (!c->lookupsCopy) return fail(ctx, c, NULL), 0;
  memcpy(c->lookupsCopy, sql ? sql : "", (size_t)len);
  c->lookupsCopy[len] = 0;
  for (char *p = c->lookupsCopy; *p;) {
    char *end = strchr(p, ';');
    int n = end ? (int)(end - p) : (int)strlen(p);
    int blank = 1;
    for (int k = 0; k < n; k++) if (p[k] != ' ' && p[k] != '\n' && p[k] != '\t') blank = 0;
    if (!blank) {
      if (c->nlookups == MAX_LOOKUPS) return fail(ctx, c, "json_rows: more than 9 lookups"), 0;
      c->lookupSql[c->nlookups] = p;
      c->lookupLen[c->nlookups] = n;
      c->nlookups++;
    }
    if (!end) break;
    p = end + 1;
  }
  c->names = c->own;
  Cache *cache = sqlite3_user_data(ctx);
  if (sqlite3_db_readonly(db, "main") == 1) {
    sqlite3_int64 version = 0;
    unsigned int v = 0;
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_DATA_VERSION, &v) == SQLITE_OK) {
      version = v;
      if (version != cache->version || !cache->lookups || strcmp(cache->lookups, c->lookupsCopy) != 0) {
        for (int i = 0; i < MAX_LOOKUPS; i++) forget(&cache->names[i]);
        sqlite3_free(cache->lookups);
        cache->lookups = sqlite3_mprintf("%s", c->lookupsCopy);
        cache->version = version;
      }
      if (cache->lookups) c->names = cache->names;
    }
  }
  return 1;
}

/* Splits the template into pieces (see Piece); checks its directives against argc. */
static int compile(sqlite3_context *ctx, Call *c, sqlite3_value *template, int argc) {
  int len = sqlite3_value_bytes(template);
  const unsigned char *text = sqlite3_value_text(template);
  c->template = sqlite3_malloc(len + 1);
  c->pieces = sqlite3_malloc64(sizeof(Piece) * ((sqlite3_uint64)len / 2 + 2));
  if (!c->template || !c->pieces) return fail(ctx, c, NULL), 0;
  if (len) memcpy(c->template, text, (size_t)len);
  const char *p = c->template, *end = c->template + len;
  int values = 0, textOff = 0;
  Piece *piece = c->pieces;
  for (;;) {
    const char *q = p < end ? memchr(p, '%', (size_t)(end - p)) : NULL;
    if (!q || q + 1 >= end) { /* the rest is text (a last lone % too) */
      *piece++ = (Piece){textOff, (int)(end - c->template) - textOff, 0};
      break;
    }
    char d = q[1];
    p = q + 2;
    if (d == '%') { /* text up to the first % of the two, and no value */
      *piece++ = (Piece){textOff, (int)(q + 1 - c->template) - textOff, 0};
      textOff = (int)(p - c->template);
      continue;
    }
    if (d != 's' && d != 'q' && !(d >= '1' && d <= '9' && d - '1' < c->nlookups))
      return fail(ctx, c, "json_rows: unknown directive in the template"), 0;
    *piece++ = (Piece){textOff, (int)(q - c->template) - textOff, d};
    textOff = (int)(p - c->template);
    values++;
  }
  c->npieces = (int)(piece - c->pieces);
  if (values > argc - 3) return fail(ctx, c, "json_rows: fewer values than the template asks for"), 0;
  if (values < argc - 3) return fail(ctx, c, "json_rows: more values than the template asks for"), 0;
  return 1;
}

static void step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  Call *c = sqlite3_aggregate_context(ctx, sizeof(Call));
  if (!c) return sqlite3_result_error_nomem(ctx);
  if (c->failed) return;
  if (argc < 3) return fail(ctx, c, "json_rows: needs a template, lookups and the most rows");
  if (!c->started) {
    c->started = 1;
    /* The last result's buffer, once nothing reads it: no growing it again per list. */
    Cache *cache = sqlite3_user_data(ctx);
    if (cache->lent.b && !lentInUse(sqlite3_context_db_handle(ctx), cache)) {
      c->out = cache->lent;
      c->out.n = 0;
      cache->lent = (Buf){0};
    }
    c->most = sqlite3_value_type(argv[2]) == SQLITE_NULL ? -1 : sqlite3_value_int64(argv[2]);
    if (!start(ctx, c, argv[1]) || !compile(ctx, c, argv[0], argc)) return;
  }
  if (c->most >= 0 && c->rows >= c->most) return fail(ctx, c, MORE_ROWS);
  Buf *out = &c->out;
  if (!put(out, c->rows ? "," : "[", 1)) return fail(ctx, c, NULL);
  c->rows++;
  sqlite3_value **v = argv + 3;
  for (const Piece *piece = c->pieces, *last = piece + c->npieces; piece < last; piece++) {
    if (!put(out, c->template + piece->textOff, piece->textLen)) return fail(ctx, c, NULL);
    int ok = 1;
    switch (piece->directive) {
      case 0: break;
      case 's': ok = putValue(out, *v++); break;
      case 'q': /* as json_quote(): text quoted; null, a number as it is */
        ok = sqlite3_value_type(*v) == SQLITE_TEXT
                 ? putQuoted(out, sqlite3_value_text(*v), sqlite3_value_bytes(*v))
                 : putValue(out, *v);
        v++;
        break;
      default: /* a name, by key */
        if (sqlite3_value_type(*v) == SQLITE_NULL) ok = put(out, "null", 4);
        else if (!putName(ctx, c, piece->directive - '1', sqlite3_value_int64(*v))) return;
        v++;
    }
    if (!ok) return fail(ctx, c, NULL);
  }
}

static void finish(sqlite3_context *ctx) {
  Call *c = sqlite3_aggregate_context(ctx, 0);
  if (!c || !c->rows) {
    if (!c || !c->failed) sqlite3_result_blob(ctx, "[]", 2, SQLITE_STATIC);
  } else if (!c->failed) {
    if (put(&c->out, "]", 1)) {
      if (!lend(ctx, sqlite3_user_data(ctx), &c->out)) {
        sqlite3_result_blob64(ctx, c->out.b, (sqlite3_uint64)c->out.n, sqlite3_free);
        c->out.b = NULL;
      }
    } else {
      sqlite3_result_error_nomem(ctx);
    }
  }
  if (!c) return;
  for (int i = 0; i < MAX_LOOKUPS; i++) {
    sqlite3_finalize(c->stmt[i]);
    forget(&c->own[i]);
  }
  sqlite3_free(c->out.b);
  sqlite3_free(c->lookupsCopy);
  sqlite3_free(c->template);
  sqlite3_free(c->pieces);
}

static void dropCache(void *p) {
  Cache *cache = p;
  for (int i = 0; i < MAX_LOOKUPS; i++) forget(&cache->names[i]);
  sqlite3_free(cache->lookups);
  sqlite3_free(cache->lent.b);
  sqlite3_free(cache);
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_jsonrows_init(sqlite3 *db, char **error, const sqlite3_api_routines *api) {
  SQLITE_EXTENSION_INIT2(api);
  (void)error;
  Cache *cache = sqlite3_malloc(sizeof(Cache));
  if (!cache) return SQLITE_NOMEM;
  memset(cache, 0, sizeof *cache);
  return sqlite3_create_function_v2(db, "json_rows", -1, SQLITE_UTF8, cache, NULL, step,
                                    finish, dropCache);
}
