// TPROC-H (dbgen) rows: a port of packages/core/src/tproch/{rng,text,generate}.ts
// with the same draws in the same order, so the bytes are the same.
#include "tproch_gen.h"

#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sledge::tproch {
namespace {

constexpr int64_t kM = 2147483647;
constexpr int64_t kA = 16807;

// 16807·x mod 2^31−1 without a division: 2^31 ≡ 1, so fold the high bits onto the low ones.
inline int64_t pmNext(int64_t x) {
  const uint64_t p = static_cast<uint64_t>(x) * static_cast<uint64_t>(kA);
  const uint64_t r = (p & static_cast<uint64_t>(kM)) + (p >> 31);
  return static_cast<int64_t>(r >= static_cast<uint64_t>(kM) ? r - static_cast<uint64_t>(kM) : r);
}
inline int64_t mulmod(int64_t a, int64_t b) { return static_cast<int64_t>((static_cast<uint64_t>(a) * static_cast<uint64_t>(b)) % kM); }

int64_t pmPower(int64_t n) {
  int64_t r = 1, m = kA;
  while (n > 0) {
    if (n & 1) r = mulmod(r, m);
    n >>= 1;
    m = mulmod(m, m);
  }
  return r;
}

// rng.ts TPROCH_STREAMS: initial seed and draws per row of each stream.
struct StreamDef {
  int64_t seed;
  int64_t boundary;
};
constexpr StreamDef kStreams[48] = {
    {1, 1},          {46831694, 1},   {1841581359, 1}, {1193163244, 1}, {727633698, 1},  {933588178, 1},  {804159733, 2},
    {1671059989, 4}, {1051288424, 4}, {1961692154, 8}, {1227283347, 1}, {1171034773, 1}, {276090261, 2},  {1066728069, 1},
    {209208115, 7},  {554590007, 7},  {721958466, 7},  {1371272478, 7}, {675466456, 7},  {1808217256, 7}, {2095021727, 7},
    {1769349045, 7}, {904914315, 7},  {373135028, 7},  {717419739, 7},  {1095462486, 14}, {881155353, 9}, {1489529863, 1},
    {1521138112, 3}, {298370230, 1},  {1140279430, 1}, {1335826707, 2}, {706178559, 9},  {110356601, 1},  {884434366, 3},
    {962338209, 1},  {1341315363, 2}, {709314158, 92}, {591449447, 1},  {431918286, 1},  {851767375, 1},  {606179079, 2},
    {1500869201, 2}, {1434868289, 1}, {263032577, 1},  {753643799, 1},  {202794285, 1},  {715851524, 1},
};

enum Sd {
  P_MFG = 0, P_BRND = 1, P_TYPE = 2, P_SIZE = 3, P_CNTR = 4, TEXT_POOL = 5, P_CMNT = 6, PS_QTY = 7, PS_SCST = 8, PS_CMNT = 9,
  O_CLRK = 11, O_CMNT = 12, O_ODATE = 13, L_QTY = 14, L_DCNT = 15, L_TAX = 16, L_SHIP = 17, L_SMODE = 18, L_PKEY = 19,
  L_SKEY = 20, L_SDTE = 21, L_CDTE = 22, L_RDTE = 23, L_RFLG = 24, L_CMNT = 25, C_ADDR = 26, C_NTRG = 27, C_PHNE = 28,
  C_ABAL = 29, C_MSEG = 30, C_CMNT = 31, S_ADDR = 32, S_NTRG = 33, S_PHNE = 34, S_ABAL = 35, S_CMNT = 36, P_NAME = 37,
  O_PRIO = 38, O_CKEY = 40, N_CMNT = 41, R_CMNT = 42, O_LCNT = 43, BBB_JNK = 44, BBB_TYPE = 45, BBB_CMNT = 46, BBB_OFFSET = 47,
};

// rng.ts TprochStreams: per stream the current value, the row's start, and 16807^boundary.
class Streams {
 public:
  Streams(const int* ids, int n) : n_(n) {
    for (int i = 0; i < n; i++) {
      ids_[i] = ids[i];
      perRow_[ids[i]] = pmPower(kStreams[ids[i]].boundary);
    }
  }
  void seekAll(int64_t rowsBefore) {
    for (int i = 0; i < n_; i++) {
      const int s = ids_[i];
      start_[s] = v_[s] = mulmod(kStreams[s].seed, pmPower(rowsBefore * kStreams[s].boundary));
    }
  }
  void nextRow() {
    for (int i = 0; i < n_; i++) {
      const int s = ids_[i];
      start_[s] = v_[s] = mulmod(start_[s], perRow_[s]);
    }
  }
  // dbgen UnifInt through doubles, as the TypeScript: lo + trunc(x / M * range).
  inline int64_t unif(int s, int64_t lo, int64_t hi) {
    const int64_t x = pmNext(v_[s]);
    v_[s] = x;
    return lo + static_cast<int64_t>((static_cast<double>(x) / 2147483647.0) * static_cast<double>(hi - lo + 1));
  }
  // a_rnd's draw: UnifInt(0, 2^31-1) with dbgen's int32-overflowed range -2^31.
  inline int64_t unifAlnum(int s) {
    const int64_t x = pmNext(v_[s]);
    v_[s] = x;
    return static_cast<int64_t>((static_cast<double>(x) / 2147483647.0) * -2147483648.0);
  }

 private:
  int ids_[16] = {};
  int n_;
  int64_t v_[48] = {};
  int64_t start_[48] = {};
  int64_t perRow_[48] = {};
};

// A weighted list: members and running weight sums (dists.ts).
struct Dist {
  std::vector<std::string_view> members;
  std::vector<int64_t> cum;
  int64_t total = 0;
  Dist(std::initializer_list<std::pair<std::string_view, int64_t>> entries) {
    for (const auto& [m, w] : entries) {
      total += w;
      members.push_back(m);
      cum.push_back(total);
    }
  }
  Dist(const std::vector<std::string_view>& ms) {
    for (auto m : ms) {
      total += 1;
      members.push_back(m);
      cum.push_back(total);
    }
  }
};

std::vector<std::string_view> crossNames(std::initializer_list<std::initializer_list<const char*>> parts, std::vector<std::string>& store) {
  std::vector<std::string> acc = {""};
  for (const auto& p : parts) {
    std::vector<std::string> next;
    for (const auto& a : acc)
      for (const char* b : p) next.push_back(a.empty() ? std::string(b) : a + " " + b);
    acc.swap(next);
  }
  store = acc;
  std::vector<std::string_view> out;
  for (const auto& s : store) out.emplace_back(s);
  return out;
}

struct Dists {
  std::vector<std::string> typeStore, cntrStore;
  Dist types{crossNames({{"STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO"},
                         {"ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED"},
                         {"TIN", "NICKEL", "BRASS", "STEEL", "COPPER"}},
                        typeStore)};
  Dist containers{crossNames({{"SM", "LG", "MED", "JUMBO", "WRAP"}, {"CASE", "BOX", "BAG", "JAR", "PACK", "PKG", "CAN", "DRUM"}}, cntrStore)};
  Dist instruct{{{"DELIVER IN PERSON", 1}, {"COLLECT COD", 1}, {"TAKE BACK RETURN", 1}, {"NONE", 1}}};
  Dist segments{{{"AUTOMOBILE", 1}, {"BUILDING", 1}, {"FURNITURE", 1}, {"HOUSEHOLD", 1}, {"MACHINERY", 1}}};
  Dist priorities{{{"1-URGENT", 1}, {"2-HIGH", 1}, {"3-MEDIUM", 1}, {"4-NOT SPECIFIED", 1}, {"5-LOW", 1}}};
  Dist rflag{{{"R", 1}, {"A", 1}}};
  Dist smode{{{"REG AIR", 1}, {"AIR", 1}, {"RAIL", 1}, {"TRUCK", 1}, {"MAIL", 1}, {"FOB", 1}, {"SHIP", 1}}};
  Dist nouns{{{"packages", 40}, {"requests", 40}, {"accounts", 40}, {"deposits", 40}, {"foxes", 20}, {"ideas", 20}, {"theodolites", 20},
              {"pinto beans", 20}, {"instructions", 20}, {"dependencies", 10}, {"excuses", 10}, {"platelets", 10}, {"asymptotes", 10},
              {"courts", 5}, {"dolphins", 5}, {"multipliers", 1}, {"sauternes", 1}, {"warthogs", 1}, {"frets", 1}, {"dinos", 1},
              {"attainments", 1}, {"somas", 1}, {"Tiresias", 1}, {"patterns", 1}, {"forges", 1}, {"braids", 1}, {"frays", 1},
              {"warhorses", 1}, {"dugouts", 1}, {"notornis", 1}, {"epitaphs", 1}, {"pearls", 1}, {"tithes", 1}, {"waters", 1},
              {"orbits", 1}, {"gifts", 1}, {"sheaves", 1}, {"depths", 1}, {"sentiments", 1}, {"decoys", 1}, {"realms", 1},
              {"pains", 1}, {"grouches", 1}, {"escapades", 1}, {"hockey players", 1}}};
  Dist verbs{{{"sleep", 20}, {"wake", 20}, {"are", 20}, {"cajole", 20}, {"haggle", 20}, {"nag", 10}, {"use", 10}, {"boost", 10},
              {"affix", 5}, {"detect", 5}, {"integrate", 5}, {"maintain", 1}, {"nod", 1}, {"was", 1}, {"lose", 1}, {"sublate", 1},
              {"solve", 1}, {"thrash", 1}, {"promise", 1}, {"engage", 1}, {"hinder", 1}, {"print", 1}, {"x-ray", 1}, {"breach", 1},
              {"eat", 1}, {"grow", 1}, {"impress", 1}, {"mold", 1}, {"poach", 1}, {"serve", 1}, {"run", 1}, {"dazzle", 1},
              {"snooze", 1}, {"doze", 1}, {"unwind", 1}, {"kindle", 1}, {"play", 1}, {"hang", 1}, {"believe", 1}, {"doubt", 1}}};
  Dist adverbs{{{"sometimes", 1}, {"always", 1}, {"never", 1}, {"furiously", 50}, {"slyly", 50}, {"carefully", 50},
                {"blithely", 40}, {"quickly", 30}, {"fluffily", 20}, {"slowly", 1}, {"quietly", 1}, {"ruthlessly", 1},
                {"thinly", 1}, {"closely", 1}, {"doggedly", 1}, {"daringly", 1}, {"bravely", 1}, {"stealthily", 1},
                {"permanently", 1}, {"enticingly", 1}, {"idly", 1}, {"busily", 1}, {"regularly", 1}, {"finally", 1},
                {"ironically", 1}, {"evenly", 1}, {"boldly", 1}, {"silently", 1}}};
  Dist prepositions{{{"about", 50}, {"above", 50}, {"according to", 50}, {"across", 50}, {"after", 50}, {"against", 40},
                     {"along", 40}, {"alongside of", 30}, {"among", 30}, {"around", 20}, {"at", 10}, {"atop", 1}, {"before", 1},
                     {"behind", 1}, {"beneath", 1}, {"beside", 1}, {"besides", 1}, {"between", 1}, {"beyond", 1}, {"by", 1},
                     {"despite", 1}, {"during", 1}, {"except", 1}, {"for", 1}, {"from", 1}, {"in place of", 1}, {"inside", 1},
                     {"instead of", 1}, {"into", 1}, {"near", 1}, {"of", 1}, {"on", 1}, {"outside", 1}, {"over", 1}, {"past", 1},
                     {"since", 1}, {"through", 1}, {"throughout", 1}, {"to", 1}, {"toward", 1}, {"under", 1}, {"until", 1},
                     {"up", 1}, {"upon", 1}, {"whithout", 1}, {"with", 1}, {"within", 1}}};
  Dist auxiliaries{{{"do", 1}, {"may", 1}, {"might", 1}, {"shall", 1}, {"will", 1}, {"would", 1}, {"can", 1}, {"could", 1},
                    {"should", 1}, {"ought to", 1}, {"must", 1}, {"will have to", 1}, {"shall have to", 1}, {"could have to", 1},
                    {"should have to", 1}, {"must have to", 1}, {"need to", 1}, {"try to", 1}}};
  Dist terminators{{{".", 50}, {";", 1}, {":", 1}, {"?", 1}, {"!", 1}, {"--", 1}}};
  Dist adjectives{{{"special", 20}, {"pending", 20}, {"unusual", 20}, {"express", 20}, {"furious", 1}, {"sly", 1}, {"careful", 1},
                   {"blithe", 1}, {"quick", 1}, {"fluffy", 1}, {"slow", 1}, {"quiet", 1}, {"ruthless", 1}, {"thin", 1},
                   {"close", 1}, {"dogged", 1}, {"daring", 1}, {"brave", 1}, {"stealthy", 1}, {"permanent", 1}, {"enticing", 1},
                   {"idle", 1}, {"busy", 1}, {"regular", 50}, {"final", 40}, {"ironic", 40}, {"even", 30}, {"bold", 20},
                   {"silent", 10}}};
  Dist grammar{{{"N V T", 3}, {"N V P T", 3}, {"N V N T", 3}, {"N P V N T", 1}, {"N P V P T", 1}}};
  Dist np{{{"N", 10}, {"J N", 20}, {"J, J N", 10}, {"D J N", 50}}};
  Dist vp{{{"V", 30}, {"X V", 1}, {"V D", 40}, {"X V D", 1}}};
};

const Dists& dists() {
  static const Dists d;
  return d;
}

constexpr const char* kColors[92] = {
    "almond", "antique", "aquamarine", "azure", "beige", "bisque", "black", "blanched", "blue", "blush", "brown", "burlywood",
    "burnished", "chartreuse", "chiffon", "chocolate", "coral", "cornflower", "cornsilk", "cream", "cyan", "dark", "deep", "dim",
    "dodger", "drab", "firebrick", "floral", "forest", "frosted", "gainsboro", "ghost", "goldenrod", "green", "grey", "honeydew",
    "hot", "indian", "ivory", "khaki", "lace", "lavender", "lawn", "lemon", "light", "lime", "linen", "magenta", "maroon",
    "medium", "metallic", "midnight", "mint", "misty", "moccasin", "navajo", "navy", "olive", "orange", "orchid", "pale",
    "papaya", "peach", "peru", "pink", "plum", "powder", "puff", "purple", "red", "rose", "rosy", "royal", "saddle", "salmon",
    "sandy", "seashell", "sienna", "sky", "slate", "smoke", "snow", "spring", "steel", "tan", "thistle", "tomato", "turquoise",
    "violet", "wheat", "white", "yellow",
};

constexpr const char* kNations[25] = {
    "ALGERIA", "ARGENTINA", "BRAZIL", "CANADA", "EGYPT", "ETHIOPIA", "FRANCE", "GERMANY", "INDIA", "INDONESIA", "IRAN", "IRAQ",
    "JAPAN", "JORDAN", "KENYA", "MOROCCO", "MOZAMBIQUE", "PERU", "CHINA", "ROMANIA", "SAUDI ARABIA", "VIETNAM", "RUSSIA",
    "UNITED KINGDOM", "UNITED STATES",
};
constexpr int kNationRegion[25] = {0, 1, 1, 1, 4, 0, 3, 3, 2, 2, 4, 4, 2, 4, 0, 0, 0, 1, 2, 3, 4, 2, 3, 3, 1};
constexpr const char* kRegions[5] = {"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"};

constexpr int kTotDate = 2557;
constexpr int kCurrentDate = 1263;  // 1995-06-17
constexpr int kOrderDateMax = kTotDate - 151 - 1;

// "YYYY-MM-DD" of day offset d from 1992-01-01.
struct DateTable {
  char s[kTotDate][10];
  DateTable() {
    int y = 1992, m = 1, day = 1;
    static constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    for (int d = 0; d < kTotDate; d++) {
      char* p = s[d];
      p[0] = static_cast<char>('0' + y / 1000);
      p[1] = static_cast<char>('0' + y / 100 % 10);
      p[2] = static_cast<char>('0' + y / 10 % 10);
      p[3] = static_cast<char>('0' + y % 10);
      p[4] = '-';
      p[5] = static_cast<char>('0' + m / 10);
      p[6] = static_cast<char>('0' + m % 10);
      p[7] = '-';
      p[8] = static_cast<char>('0' + day / 10);
      p[9] = static_cast<char>('0' + day % 10);
      const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
      const int len = kDays[m - 1] + (m == 2 && leap ? 1 : 0);
      if (++day > len) {
        day = 1;
        if (++m > 12) {
          m = 1;
          y++;
        }
      }
    }
  }
};

const DateTable& dates() {
  static const DateTable t;
  return t;
}

constexpr char kAlnum[] = "0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,";

// Text bounds trunc(0.4·avg), trunc(1.6·avg) in doubles, as the TypeScript.
struct Bounds {
  int64_t lo, hi;
};
inline Bounds textBounds(int avg) {
  return {static_cast<int64_t>(static_cast<double>(avg) * 0.4), static_cast<int64_t>(static_cast<double>(avg) * 1.6)};
}

inline std::string_view pick(Streams& st, int s, const Dist& d) {
  const int64_t j = st.unif(s, 1, d.total);
  size_t i = 0;
  while (d.cum[i] < j) i++;
  return d.members[i];
}

inline uint8_t* putView(uint8_t* p, std::string_view v) { return putBytes(p, v.data(), v.size()); }

inline uint8_t* put9(uint8_t* p, int64_t n) {
  uint8_t digits[20];
  const size_t len = static_cast<size_t>(putUint(digits, static_cast<uint64_t>(n)) - digits);
  for (size_t i = len; i < 9; i++) *p++ = '0';
  return putBytes(p, digits, len);
}

inline int64_t retailCents(int64_t p) { return 90000 + (p / 10) % 20001 + (p % 1000) * 100; }
inline int64_t partSupplier(int64_t p, int64_t s, int64_t suppliers) { return (p + s * (suppliers / 4 + (p - 1) / suppliers)) % suppliers + 1; }
inline int64_t orderKey(int64_t i, int64_t seq) { return (i / 8) * 32 + seq * 8 + i % 8; }

class Gen {
 public:
  Gen(const Request& r, Output& o) : req_(r), out_(o), sep_(r.sep) {}

  bool run() {
    switch (req_.kind) {
      case Kind::Region:
        return regionNation();
      case Kind::Supplier:
        return suppliers();
      case Kind::Customer:
        return customers();
      case Kind::Part:
        return parts();
      case Kind::Orders:
        return orders();
    }
    return true;
  }

 private:
  // dbg_text: offset then length, the pool's bytes there.
  inline uint8_t* comment(uint8_t* p, Streams& st, int s, int avg) {
    const Bounds b = textBounds(avg);
    const int64_t off = st.unif(s, 0, static_cast<int64_t>(kPoolSize) - b.hi);
    const int64_t len = st.unif(s, b.lo, b.hi);
    return putBytes(p, req_.pool + off, static_cast<size_t>(len));
  }
  inline uint8_t* alnum(uint8_t* p, Streams& st, int s, int avg) {
    const Bounds b = textBounds(avg);
    const int64_t len = st.unif(s, b.lo, b.hi);
    int64_t bits = 0;
    for (int64_t i = 0; i < len; i++) {
      if (i % 5 == 0) bits = st.unifAlnum(s);
      *p++ = static_cast<uint8_t>(kAlnum[bits & 63]);
      bits >>= 6;
    }
    return p;
  }
  inline uint8_t* phone(uint8_t* p, Streams& st, int s, int64_t nation) {
    const int64_t a = st.unif(s, 100, 999);
    const int64_t b = st.unif(s, 100, 999);
    const int64_t c = st.unif(s, 1000, 9999);
    p = putUint(p, static_cast<uint64_t>(10 + nation));
    *p++ = '-';
    p = putUint(p, static_cast<uint64_t>(a));
    *p++ = '-';
    p = putUint(p, static_cast<uint64_t>(b));
    *p++ = '-';
    return putUint(p, static_cast<uint64_t>(c));
  }
  inline uint8_t* sep(uint8_t* p) {
    *p++ = sep_;
    return p;
  }
  bool start(int n, const char* a, const char* b = nullptr) {
    out_.count = n;
    out_.tables[0] = a;
    out_.tables[1] = b;
    return true;
  }

  bool regionNation() {
    start(2, "region", "nation");
    const int ids[] = {N_CMNT, R_CMNT};
    Streams st(ids, 2);
    st.seekAll(0);
    ByteOut& r = out_.out[0];
    ByteOut& n = out_.out[1];
    for (int i = 0; i < 25; i++) {
      uint8_t* p = n.reserve(512);
      if (!p) return false;
      p = putUint(p, static_cast<uint64_t>(i));
      p = sep(p);
      p = putBytes(p, kNations[i], std::strlen(kNations[i]));
      p = sep(p);
      p = putUint(p, static_cast<uint64_t>(kNationRegion[i]));
      p = sep(p);
      p = comment(p, st, N_CMNT, 72);
      *p++ = '\n';
      n.commit(p);
      n.row();
    }
    for (int i = 0; i < 5; i++) {
      uint8_t* p = r.reserve(512);
      if (!p) return false;
      p = putUint(p, static_cast<uint64_t>(i));
      p = sep(p);
      p = putBytes(p, kRegions[i], std::strlen(kRegions[i]));
      p = sep(p);
      p = comment(p, st, R_CMNT, 72);
      *p++ = '\n';
      r.commit(p);
      r.row();
    }
    return true;
  }

  bool suppliers() {
    start(1, "supplier");
    const int ids[] = {S_ADDR, S_NTRG, S_PHNE, S_ABAL, S_CMNT, BBB_JNK, BBB_TYPE, BBB_CMNT, BBB_OFFSET};
    Streams st(ids, 9);
    st.seekAll(req_.from - 1);
    ByteOut& o = out_.out[0];
    if (!o.expect(static_cast<size_t>(req_.to - req_.from + 1) * 160)) return false;
    for (int64_t k = req_.from; k <= req_.to; k++, st.nextRow()) {
      uint8_t* p = o.reserve(512);
      if (!p) return false;
      p = putUint(p, static_cast<uint64_t>(k));
      p = sep(p);
      p = putLit(p, "Supplier#");
      p = put9(p, k);
      p = sep(p);
      p = alnum(p, st, S_ADDR, 25);
      p = sep(p);
      const int64_t nation = st.unif(S_NTRG, 0, 24);
      p = putUint(p, static_cast<uint64_t>(nation));
      p = sep(p);
      p = phone(p, st, S_PHNE, nation);
      p = sep(p);
      p = putDecimal2(p, st.unif(S_ABAL, -99999, 999999));
      p = sep(p);
      uint8_t* const c = p;
      p = comment(p, st, S_CMNT, 63);
      const int64_t clen = p - c;
      const int64_t bad = st.unif(BBB_CMNT, 1, 10000);
      const int64_t type = st.unif(BBB_TYPE, 0, 100);
      const int64_t noise = st.unif(BBB_JNK, 0, clen - 19);
      const int64_t offset = st.unif(BBB_OFFSET, 0, clen - (19 + noise));
      if (bad <= 10) {
        std::memcpy(c + offset, "Customer ", 9);
        std::memcpy(c + offset + 9 + noise, type < 50 ? "Complaints" : "Recommends", 10);
      }
      *p++ = '\n';
      o.commit(p);
      o.row();
    }
    return true;
  }

  bool customers() {
    start(1, "customer");
    const int ids[] = {C_ADDR, C_NTRG, C_PHNE, C_ABAL, C_MSEG, C_CMNT};
    Streams st(ids, 6);
    st.seekAll(req_.from - 1);
    const Dists& d = dists();
    ByteOut& o = out_.out[0];
    if (!o.expect(static_cast<size_t>(req_.to - req_.from + 1) * 180)) return false;
    for (int64_t k = req_.from; k <= req_.to; k++, st.nextRow()) {
      uint8_t* p = o.reserve(512);
      if (!p) return false;
      p = putUint(p, static_cast<uint64_t>(k));
      p = sep(p);
      p = putLit(p, "Customer#");
      p = put9(p, k);
      p = sep(p);
      p = alnum(p, st, C_ADDR, 25);
      p = sep(p);
      const int64_t nation = st.unif(C_NTRG, 0, 24);
      p = putUint(p, static_cast<uint64_t>(nation));
      p = sep(p);
      p = phone(p, st, C_PHNE, nation);
      p = sep(p);
      p = putDecimal2(p, st.unif(C_ABAL, -99999, 999999));
      p = sep(p);
      p = putView(p, pick(st, C_MSEG, d.segments));
      p = sep(p);
      p = comment(p, st, C_CMNT, 73);
      *p++ = '\n';
      o.commit(p);
      o.row();
    }
    return true;
  }

  bool parts() {
    start(2, "part", "partsupp");
    const int ids[] = {P_MFG, P_BRND, P_TYPE, P_SIZE, P_CNTR, P_CMNT, P_NAME, PS_QTY, PS_SCST, PS_CMNT};
    Streams st(ids, 10);
    st.seekAll(req_.from - 1);
    const Dists& d = dists();
    ByteOut& po = out_.out[0];
    ByteOut& so = out_.out[1];
    const size_t n = static_cast<size_t>(req_.to - req_.from + 1);
    if (!po.expect(n * 140) || !so.expect(n * 4 * 150)) return false;
    int perm[92];
    for (int64_t k = req_.from; k <= req_.to; k++, st.nextRow()) {
      uint8_t* p = po.reserve(512);
      if (!p) return false;
      p = putUint(p, static_cast<uint64_t>(k));
      p = sep(p);
      for (int i = 0; i < 92; i++) perm[i] = i;
      for (int i = 0; i < 92; i++) {
        const int j = static_cast<int>(st.unif(P_NAME, i, 91));
        const int t = perm[j];
        perm[j] = perm[i];
        perm[i] = t;
      }
      for (int i = 0; i < 5; i++) {
        if (i > 0) *p++ = ' ';
        p = putBytes(p, kColors[perm[i]], std::strlen(kColors[perm[i]]));
      }
      p = sep(p);
      const int64_t m = st.unif(P_MFG, 1, 5);
      p = putLit(p, "Manufacturer#");
      p = putUint(p, static_cast<uint64_t>(m));
      p = sep(p);
      p = putLit(p, "Brand#");
      p = putUint(p, static_cast<uint64_t>(m * 10 + st.unif(P_BRND, 1, 5)));
      p = sep(p);
      p = putView(p, pick(st, P_TYPE, d.types));
      p = sep(p);
      p = putUint(p, static_cast<uint64_t>(st.unif(P_SIZE, 1, 50)));
      p = sep(p);
      p = putView(p, pick(st, P_CNTR, d.containers));
      p = sep(p);
      p = putDecimal2(p, retailCents(k));
      p = sep(p);
      p = comment(p, st, P_CMNT, 14);
      *p++ = '\n';
      po.commit(p);
      po.row();
      for (int s = 0; s < 4; s++) {
        uint8_t* q = so.reserve(512);
        if (!q) return false;
        q = putUint(q, static_cast<uint64_t>(k));
        q = sep(q);
        q = putUint(q, static_cast<uint64_t>(partSupplier(k, s, req_.sizes.supplier)));
        q = sep(q);
        q = putUint(q, static_cast<uint64_t>(st.unif(PS_QTY, 1, 9999)));
        q = sep(q);
        q = putDecimal2(q, st.unif(PS_SCST, 100, 100000));
        q = sep(q);
        q = comment(q, st, PS_CMNT, 124);
        *q++ = '\n';
        so.commit(q);
        so.row();
      }
    }
    return true;
  }

  bool orders() {
    start(2, "orders", "lineitem");
    const int oids[] = {O_CLRK, O_CMNT, O_ODATE, O_PRIO, O_CKEY, O_LCNT};
    const int lids[] = {L_QTY, L_DCNT, L_TAX, L_SHIP, L_SMODE, L_PKEY, L_SKEY, L_SDTE, L_CDTE, L_RDTE, L_RFLG, L_CMNT};
    Streams os(oids, 6);
    Streams ls(lids, 12);
    os.seekAll(req_.orderRowsBefore);
    ls.seekAll(req_.lineRowsBefore);
    const Dists& d = dists();
    const DateTable& dt = dates();
    ByteOut& oo = out_.out[0];
    ByteOut& lo = out_.out[1];
    const size_t n = static_cast<size_t>(req_.to - req_.from + 1);
    if (!oo.expect(n * 120) || !lo.expect(n * 4 * 130)) return false;
    const int64_t customers = req_.sizes.customer;
    const int64_t partsN = req_.sizes.part;
    const int64_t suppliersN = req_.sizes.supplier;
    const int64_t clerks = req_.sizes.scale * 1000 > 1000 ? req_.sizes.scale * 1000 : 1000;
    for (int64_t i = req_.from; i <= req_.to; i++, os.nextRow(), ls.nextRow()) {
      const int64_t key = orderKey(i, req_.seq);
      int64_t cust = os.unif(O_CKEY, 1, customers);
      int64_t delta = 1;
      while (cust % 3 == 0) {
        cust += delta;
        if (cust > customers) cust = customers;
        delta = -delta;
      }
      const int64_t date = os.unif(O_ODATE, 0, kOrderDateMax);
      const std::string_view prio = pick(os, O_PRIO, d.priorities);
      const int64_t clerk = os.unif(O_CLRK, 1, clerks);
      const Bounds ob = textBounds(49);
      const int64_t coff = os.unif(O_CMNT, 0, static_cast<int64_t>(kPoolSize) - ob.hi);
      const int64_t clen = os.unif(O_CMNT, ob.lo, ob.hi);
      const int64_t lines = os.unif(O_LCNT, 1, 7);
      int64_t total = 0;
      int64_t shipped = 0;
      for (int64_t ln = 1; ln <= lines; ln++) {
        const int64_t qty = ls.unif(L_QTY, 1, 50);
        const int64_t disc = ls.unif(L_DCNT, 0, 10);
        const int64_t tax = ls.unif(L_TAX, 0, 8);
        const std::string_view instruct = pick(ls, L_SHIP, d.instruct);
        const std::string_view mode = pick(ls, L_SMODE, d.smode);
        const Bounds lb = textBounds(27);
        const int64_t loff = ls.unif(L_CMNT, 0, static_cast<int64_t>(kPoolSize) - lb.hi);
        const int64_t llen = ls.unif(L_CMNT, lb.lo, lb.hi);
        const int64_t partkey = ls.unif(L_PKEY, 1, partsN);
        const int64_t suppkey = partSupplier(partkey, ls.unif(L_SKEY, 0, 3), suppliersN);
        const int64_t price = retailCents(partkey) * qty;
        total += ((price * (100 - disc)) / 100) * (100 + tax) / 100;
        const int64_t ship = date + ls.unif(L_SDTE, 1, 121);
        const int64_t commit = date + ls.unif(L_CDTE, 30, 90);
        const int64_t receipt = ship + ls.unif(L_RDTE, 1, 30);
        const std::string_view rflag = receipt <= kCurrentDate ? pick(ls, L_RFLG, d.rflag) : std::string_view("N");
        if (ship <= kCurrentDate) shipped++;
        uint8_t* p = lo.reserve(512);
        if (!p) return false;
        p = putUint(p, static_cast<uint64_t>(key));
        p = sep(p);
        p = putUint(p, static_cast<uint64_t>(partkey));
        p = sep(p);
        p = putUint(p, static_cast<uint64_t>(suppkey));
        p = sep(p);
        p = putUint(p, static_cast<uint64_t>(ln));
        p = sep(p);
        p = putUint(p, static_cast<uint64_t>(qty));
        p = sep(p);
        p = putDecimal2(p, price);
        p = sep(p);
        p = putDecimal2(p, disc);
        p = sep(p);
        p = putDecimal2(p, tax);
        p = sep(p);
        p = putView(p, rflag);
        p = sep(p);
        *p++ = ship <= kCurrentDate ? 'F' : 'O';
        p = sep(p);
        p = putBytes(p, dt.s[ship], 10);
        p = sep(p);
        p = putBytes(p, dt.s[commit], 10);
        p = sep(p);
        p = putBytes(p, dt.s[receipt], 10);
        p = sep(p);
        p = putView(p, instruct);
        p = sep(p);
        p = putView(p, mode);
        p = sep(p);
        p = putBytes(p, req_.pool + loff, static_cast<size_t>(llen));
        *p++ = '\n';
        lo.commit(p);
        lo.row();
      }
      uint8_t* p = oo.reserve(512);
      if (!p) return false;
      p = putUint(p, static_cast<uint64_t>(key));
      p = sep(p);
      p = putUint(p, static_cast<uint64_t>(cust));
      p = sep(p);
      *p++ = shipped == lines ? 'F' : shipped > 0 ? 'P' : 'O';
      p = sep(p);
      p = putDecimal2(p, total);
      p = sep(p);
      p = putBytes(p, dt.s[date], 10);
      p = sep(p);
      p = putView(p, prio);
      p = sep(p);
      p = putLit(p, "Clerk#");
      p = put9(p, clerk);
      p = sep(p);
      *p++ = '0';
      p = sep(p);
      p = putBytes(p, req_.pool + coff, static_cast<size_t>(clen));
      *p++ = '\n';
      oo.commit(p);
      oo.row();
    }
    return true;
  }

  const Request& req_;
  Output& out_;
  const uint8_t sep_;
};

// Pool builder: core text.ts buildTprochTextPool.
struct FastDist {
  int64_t total;
  std::vector<int32_t> lut;
  const Dist* d;
  explicit FastDist(const Dist& dist) : total(dist.total), lut(static_cast<size_t>(dist.total + 1)), d(&dist) {
    size_t i = 0;
    for (int64_t j = 1; j <= total; j++) {
      while (dist.cum[i] < j) i++;
      lut[static_cast<size_t>(j)] = static_cast<int32_t>(i);
    }
  }
};

class PoolBuilder {
 public:
  explicit PoolBuilder(uint8_t* out)
      : out_(out),
        grammar_(dists().grammar), np_(dists().np), vp_(dists().vp), nouns_(dists().nouns), verbs_(dists().verbs),
        adjectives_(dists().adjectives), adverbs_(dists().adverbs), auxiliaries_(dists().auxiliaries),
        prepositions_(dists().prepositions), terminators_(dists().terminators) {}

  void build() {
    constexpr size_t kSentenceMax = 512;
    buf_ = out_;
    pos_ = 0;
    while (pos_ < kPoolSize - kSentenceMax) {
      sentence();
      out_[pos_++] = ' ';
    }
    size_t at = pos_;
    uint8_t scratch[kSentenceMax];
    buf_ = scratch;
    while (at < kPoolSize) {
      pos_ = 0;
      sentence();
      const size_t room = kPoolSize - at;
      if (room >= pos_ + 1) {
        std::memcpy(out_ + at, scratch, pos_);
        out_[at + pos_] = ' ';
        at += pos_ + 1;
      } else {
        std::memcpy(out_ + at, scratch, room);
        at = kPoolSize;
      }
    }
  }

 private:
  inline int pickIndex(const FastDist& f) {
    seed_ = pmNext(seed_);
    return f.lut[static_cast<size_t>(1 + static_cast<int64_t>((static_cast<double>(seed_) / 2147483647.0) * static_cast<double>(f.total)))];
  }
  inline void word(const FastDist& f) {
    const std::string_view w = f.d->members[static_cast<size_t>(pickIndex(f))];
    std::memcpy(buf_ + pos_, w.data(), w.size());
    pos_ += w.size();
  }
  inline void space() { buf_[pos_++] = ' '; }
  void nounPhrase() {
    switch (pickIndex(np_)) {
      case 0:
        break;
      case 1:
        word(adjectives_);
        space();
        break;
      case 2:
        word(adjectives_);
        buf_[pos_++] = ',';
        space();
        word(adjectives_);
        space();
        break;
      default:
        word(adverbs_);
        space();
        word(adjectives_);
        space();
    }
    word(nouns_);
    space();
  }
  void verbPhrase() {
    const int form = pickIndex(vp_);
    if (form == 1 || form == 3) {
      word(auxiliaries_);
      space();
    }
    word(verbs_);
    space();
    if (form >= 2) {
      word(adverbs_);
      space();
    }
  }
  void prepPhrase() {
    word(prepositions_);
    std::memcpy(buf_ + pos_, " the ", 5);
    pos_ += 5;
    nounPhrase();
  }
  void sentence() {
    const int form = pickIndex(grammar_);
    nounPhrase();
    if (form >= 3) prepPhrase();
    verbPhrase();
    if (form == 1 || form == 4) {
      prepPhrase();
    } else if (form == 2 || form == 3) {
      nounPhrase();
    }
    pos_--;
    word(terminators_);
  }

  uint8_t* out_;
  uint8_t* buf_ = nullptr;
  size_t pos_ = 0;
  int64_t seed_ = kStreams[TEXT_POOL].seed;
  FastDist grammar_, np_, vp_, nouns_, verbs_, adjectives_, adverbs_, auxiliaries_, prepositions_, terminators_;
};

}  // namespace

void buildTextPool(uint8_t* out) {
  PoolBuilder b(out);
  b.build();
}

bool generate(const Request& req, Output& result) {
  Gen g(req, result);
  return g.run();
}

}  // namespace sledge::tproch
