/*
 * mariaref: the C-client reference for Sledge's MariaDB/MySQL VUs (pnpm bench mariaref, bench/mariaref.js).
 *
 * One thread and one connection per VU, each calling the five TPROC-C procedures of
 * packages/sql/mysql/tprocc/procedures.sql as Sledge's VUs do by default: one text-protocol
 * CALL per transaction with the arguments inlined (mysql2's query() with client-side escaping),
 * every result set read, NEWORD's rolled_back column read to count rollbacks. Inputs follow
 * packages/core/src/tprocc/inputs.ts: the 10/10/1/1/1 mix drawn as U[1,23], the VU's home
 * warehouse and stock-level district (given on the command line, computed by the caller from
 * the job's seed), NURand(255,0,999,123) last names, 5..15 order lines with a 1% remote supply
 * warehouse, a 1% rollback order whose last item is 100001. The random generator is the
 * splitmix64 below, not Sledge's (the shapes are the same, the draws are not).
 *
 * The clients warm up for <warmup s>, then the process CPU (getrusage RUSAGE_SELF: all threads)
 * and the transactions are taken over the next <seconds>. Stdout: "window start" and "window end"
 * as they happen (the caller reads the server's counters then), then one line of JSON.
 *
 * usage: mariaref host port user password database warmup_s seconds warehouses homes stockds seed
 *        homes and stockds: comma-separated, one per VU (the VU count is their number)
 */
#include <mysql.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define MAX_VUS 256

static const char *host, *user, *password, *database;
static unsigned port;
static int warehouses;
static uint64_t seed;
static atomic_int stop_flag;
static atomic_int connected;
static atomic_int failed;

struct vu {
  pthread_t thread;
  int index, home_w, stock_d;
  atomic_ullong commits, rollbacks, errors;
  char error[256];
};
static struct vu vus[MAX_VUS];

/* splitmix64: one stream per VU. */
static uint64_t next64(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
static int rnd(uint64_t *s, int lo, int hi) { return lo + (int)(next64(s) % (uint64_t)(hi - lo + 1)); }
static int nurand(uint64_t *s, int a, int x, int y, int c) { return (((rnd(s, 0, a) | rnd(s, x, y)) + c) % (y - x + 1)) + x; }

static const char *SYL[10] = {"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"};
static void last_name(uint64_t *s, char *out) {
  int n = nurand(s, 255, 0, 999, 123);
  sprintf(out, "%s%s%s", SYL[n / 100], SYL[(n / 10) % 10], SYL[n % 10]);
}
static int other_warehouse(uint64_t *s, int w) {
  int o;
  do o = rnd(s, 1, warehouses);
  while (o == w);
  return o;
}

/* Builds the CALL of one transaction into q; returns 1 for new order (its result says rolled_back). */
static int build(MYSQL *c, uint64_t *s, struct vu *v, char *q) {
  int t = rnd(s, 1, 23), w = v->home_w;
  char last[32] = "", esc[72];
  if (t <= 10) {
    int d = rnd(s, 1, 10), cid = rnd(s, 1, 3000), n = rnd(s, 5, 15), rb = rnd(s, 1, 100) == 1, local = 1;
    char items[128], supply[128], qty[64];
    int pi = 0, ps = 0, pq = 0;
    for (int i = 0; i < n; i++) {
      int sw = w;
      if (warehouses > 1 && rnd(s, 1, 100) == 1) sw = other_warehouse(s, w), local = 0;
      int item = rb && i == n - 1 ? 100001 : rnd(s, 1, 100000);
      pi += sprintf(items + pi, i ? ",%d" : "%d", item);
      ps += sprintf(supply + ps, i ? ",%d" : "%d", sw);
      pq += sprintf(qty + pq, i ? ",%d" : "%d", rnd(s, 1, 10));
    }
    sprintf(q, "CALL neword(%d, %d, %d, %d, %d, '%s', '%s', '%s')", w, d, cid, n, local, items, supply, qty);
    return 1;
  }
  if (t <= 20) {
    int d = rnd(s, 1, 10), cw = w, cd = d;
    if (rnd(s, 1, 100) > 85) {
      cd = rnd(s, 1, 10);
      if (warehouses > 1) cw = other_warehouse(s, w);
    }
    int byname = rnd(s, 1, 100) <= 60;
    if (byname) last_name(s, last);
    mysql_real_escape_string(c, esc, last, strlen(last));
    sprintf(q, "CALL payment(%d, %d, %d, %d, %d, %d, '%s', %d)", w, d, cw, cd, rnd(s, 1, 3000), byname, esc, rnd(s, 1, 5000));
  } else if (t == 21) {
    sprintf(q, "CALL delivery(%d, %d)", w, rnd(s, 1, 10));
  } else if (t == 22) {
    sprintf(q, "CALL slev(%d, %d, %d)", w, v->stock_d, rnd(s, 10, 20));
  } else {
    int d = rnd(s, 1, 10), byname = rnd(s, 1, 100) <= 60;
    if (byname) last_name(s, last);
    mysql_real_escape_string(c, esc, last, strlen(last));
    sprintf(q, "CALL ostat(%d, %d, %d, %d, '%s')", w, d, rnd(s, 1, 3000), byname, esc);
  }
  return 0;
}

static void *run(void *arg) {
  struct vu *v = arg;
  uint64_t s = seed ^ (0x100000001B3ULL * (uint64_t)(v->index + 2));
  MYSQL *c = mysql_init(NULL);
  if (!mysql_real_connect(c, host, user, password, database, port, NULL, CLIENT_MULTI_RESULTS)) {
    snprintf(v->error, sizeof v->error, "connect: %s", mysql_error(c));
    atomic_fetch_add(&failed, 1);
    atomic_fetch_add(&connected, 1);
    mysql_close(c);
    return NULL;
  }
  atomic_fetch_add(&connected, 1);
  char q[512];
  while (!atomic_load_explicit(&stop_flag, memory_order_relaxed)) {
    int is_new_order = build(c, &s, v, q);
    if (mysql_real_query(c, q, strlen(q))) {
      unsigned e = mysql_errno(c);
      atomic_fetch_add(&v->errors, 1);
      if (e == 2006 || e == 2013) {
        snprintf(v->error, sizeof v->error, "%s", mysql_error(c));
        break;
      }
      continue;
    }
    int rolled_back = 0;
    do {
      MYSQL_RES *r = mysql_store_result(c);
      if (r) {
        MYSQL_ROW row = mysql_fetch_row(r);
        if (is_new_order && row && row[0] && row[0][0] == '1') rolled_back = 1;
        mysql_free_result(r);
      }
    } while (mysql_next_result(c) == 0);
    if (mysql_errno(c)) atomic_fetch_add(&v->errors, 1);
    else if (rolled_back) atomic_fetch_add(&v->rollbacks, 1);
    else atomic_fetch_add(&v->commits, 1);
  }
  mysql_close(c);
  return NULL;
}

static double cpu_seconds(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}
static void totals(int n, unsigned long long out[3]) {
  out[0] = out[1] = out[2] = 0;
  for (int i = 0; i < n; i++) out[0] += vus[i].commits, out[1] += vus[i].rollbacks, out[2] += vus[i].errors;
}
static void sleep_s(double s) {
  struct timespec t = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
  nanosleep(&t, NULL);
}

int main(int argc, char **argv) {
  if (argc != 12) {
    fprintf(stderr, "usage: %s host port user password database warmup_s seconds warehouses homes stockds seed\n", argv[0]);
    return 2;
  }
  host = argv[1], port = (unsigned)atoi(argv[2]), user = argv[3], password = argv[4], database = argv[5];
  double warmup = atof(argv[6]), seconds = atof(argv[7]);
  warehouses = atoi(argv[8]);
  seed = strtoull(argv[11], NULL, 10);
  int n = 0;
  for (char *p = strtok(argv[9], ","); p && n < MAX_VUS; p = strtok(NULL, ",")) vus[n].index = n, vus[n].home_w = atoi(p), n++;
  int m = 0;
  for (char *p = strtok(argv[10], ","); p && m < n; p = strtok(NULL, ",")) vus[m++].stock_d = atoi(p);
  if (n == 0 || m != n || seconds <= 0) {
    fprintf(stderr, "mariaref: need as many stock-level districts as home warehouses, and seconds > 0\n");
    return 2;
  }
  mysql_library_init(0, NULL, NULL);
  for (int i = 0; i < n; i++) pthread_create(&vus[i].thread, NULL, run, &vus[i]);
  while (atomic_load(&connected) < n) sleep_s(0.001);
  if (atomic_load(&failed) == 0) sleep_s(warmup);
  unsigned long long a[3], b[3];
  totals(n, a);
  double c0 = cpu_seconds(), t0 = now();
  printf("window start\n");
  fflush(stdout);
  if (atomic_load(&failed) == 0) sleep_s(seconds);
  totals(n, b);
  double c1 = cpu_seconds(), t1 = now();
  printf("window end\n");
  fflush(stdout);
  atomic_store(&stop_flag, 1);
  for (int i = 0; i < n; i++) pthread_join(vus[i].thread, NULL);
  mysql_library_end();
  for (int i = 0; i < n; i++)
    if (vus[i].error[0]) {
      fprintf(stderr, "mariaref: VU %d: %s\n", i + 1, vus[i].error);
      return 1;
    }
  printf("{\"vus\":%d,\"seconds\":%.3f,\"commits\":%llu,\"rollbacks\":%llu,\"errors\":%llu,\"cpuS\":%.4f}\n", n, t1 - t0, b[0] - a[0], b[1] - a[1],
         b[2] - a[2], c1 - c0);
  return 0;
}
