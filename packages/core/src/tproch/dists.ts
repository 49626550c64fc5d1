/**
 * The TPC-H distributions (dbgen's dists.dss): every word list with its
 * weights, in file order. Order and weights matter: dbgen's pick_str() draws
 * j = U[1, Σweights] and takes the first member whose running weight sum is
 * >= j, so the same draw picks the same member only with the same order.
 *
 * Facts (lists, weights, order) from the TPC-H specification clause 4.2.2.13
 * and dbgen's dists.dss; the representation is ours.
 */

/** A weighted list: [member, weight] in dists.dss order. */
export type TprochDistEntries = readonly (readonly [string, number])[];

/** A distribution ready for picking: members, running weight sums, total. */
export interface TprochDist {
  readonly name: string;
  readonly members: readonly string[];
  /** Running sums of the weights (dbgen stores these in place of the weights). */
  readonly cumulative: readonly number[];
  readonly total: number;
}

export function tprochDist(name: string, entries: TprochDistEntries): TprochDist {
  const members: string[] = [];
  const cumulative: number[] = [];
  let sum = 0;
  for (const [m, w] of entries) {
    sum += w;
    members.push(m);
    cumulative.push(sum);
  }
  return { name, members, cumulative, total: sum };
}

const ones = (list: readonly string[]): TprochDistEntries => list.map((m) => [m, 1] as const);

const cross = (...parts: readonly (readonly string[])[]): string[] =>
  parts.reduce<string[]>((acc, p) => acc.flatMap((a) => p.map((b) => (a ? `${a} ${b}` : b))), ['']);

/** p_type syllables (clause 4.2.2.13): 6 × 5 × 5 = 150 types, in dists.dss order. */
export const TPROCH_TYPE_SYLLABLES = [
  ['STANDARD', 'SMALL', 'MEDIUM', 'LARGE', 'ECONOMY', 'PROMO'],
  ['ANODIZED', 'BURNISHED', 'PLATED', 'POLISHED', 'BRUSHED'],
  ['TIN', 'NICKEL', 'BRASS', 'STEEL', 'COPPER'],
] as const;

/** p_container syllables: 5 × 8 = 40 containers, in dists.dss order. */
export const TPROCH_CONTAINER_SYLLABLES = [
  ['SM', 'LG', 'MED', 'JUMBO', 'WRAP'],
  ['CASE', 'BOX', 'BAG', 'JAR', 'PACK', 'PKG', 'CAN', 'DRUM'],
] as const;

/** The 92 colours of p_name (agg_str picks 5 distinct ones). */
export const TPROCH_COLORS: readonly string[] = [
  'almond', 'antique', 'aquamarine', 'azure', 'beige', 'bisque', 'black', 'blanched', 'blue', 'blush',
  'brown', 'burlywood', 'burnished', 'chartreuse', 'chiffon', 'chocolate', 'coral', 'cornflower', 'cornsilk', 'cream',
  'cyan', 'dark', 'deep', 'dim', 'dodger', 'drab', 'firebrick', 'floral', 'forest', 'frosted',
  'gainsboro', 'ghost', 'goldenrod', 'green', 'grey', 'honeydew', 'hot', 'indian', 'ivory', 'khaki',
  'lace', 'lavender', 'lawn', 'lemon', 'light', 'lime', 'linen', 'magenta', 'maroon', 'medium',
  'metallic', 'midnight', 'mint', 'misty', 'moccasin', 'navajo', 'navy', 'olive', 'orange', 'orchid',
  'pale', 'papaya', 'peach', 'peru', 'pink', 'plum', 'powder', 'puff', 'purple', 'red',
  'rose', 'rosy', 'royal', 'saddle', 'salmon', 'sandy', 'seashell', 'sienna', 'sky', 'slate',
  'smoke', 'snow', 'spring', 'steel', 'tan', 'thistle', 'tomato', 'turquoise', 'violet', 'wheat',
  'white', 'yellow',
];

/**
 * Nations with their dists.dss weights. These weights are not a distribution:
 * their running sum is the nation's region key (n_regionkey).
 */
export const TPROCH_NATION_ENTRIES: TprochDistEntries = [
  ['ALGERIA', 0], ['ARGENTINA', 1], ['BRAZIL', 0], ['CANADA', 0], ['EGYPT', 3],
  ['ETHIOPIA', -4], ['FRANCE', 3], ['GERMANY', 0], ['INDIA', -1], ['INDONESIA', 0],
  ['IRAN', 2], ['IRAQ', 0], ['JAPAN', -2], ['JORDAN', 2], ['KENYA', -4],
  ['MOROCCO', 0], ['MOZAMBIQUE', 0], ['PERU', 1], ['CHINA', 1], ['ROMANIA', 1],
  ['SAUDI ARABIA', 1], ['VIETNAM', -2], ['RUSSIA', 1], ['UNITED KINGDOM', 0], ['UNITED STATES', -2],
];

export const TPROCH_REGIONS: readonly string[] = ['AFRICA', 'AMERICA', 'ASIA', 'EUROPE', 'MIDDLE EAST'];

export const TPROCH_DISTS = {
  category: tprochDist('category', ones(['FURNITURE', 'STORAGE EQUIP', 'TOOLS', 'MACHINE TOOLS', 'OTHER'])),
  p_cntr: tprochDist('p_cntr', ones(cross(...TPROCH_CONTAINER_SYLLABLES))),
  instruct: tprochDist('instruct', ones(['DELIVER IN PERSON', 'COLLECT COD', 'TAKE BACK RETURN', 'NONE'])),
  msegmnt: tprochDist('msegmnt', ones(['AUTOMOBILE', 'BUILDING', 'FURNITURE', 'HOUSEHOLD', 'MACHINERY'])),
  p_names: tprochDist('p_names', ones(['CLEANER', 'SOAP', 'DETERGENT', 'EXTRA'])),
  nations: tprochDist('nations', TPROCH_NATION_ENTRIES),
  /** Nations with equal weights (qgen's picks). */
  nations2: tprochDist('nations2', ones(TPROCH_NATION_ENTRIES.map(([n]) => n))),
  regions: tprochDist('regions', ones(TPROCH_REGIONS)),
  o_oprio: tprochDist('o_oprio', ones(['1-URGENT', '2-HIGH', '3-MEDIUM', '4-NOT SPECIFIED', '5-LOW'])),
  rflag: tprochDist('rflag', ones(['R', 'A'])),
  smode: tprochDist('smode', ones(['REG AIR', 'AIR', 'RAIL', 'TRUCK', 'MAIL', 'FOB', 'SHIP'])),
  p_types: tprochDist('p_types', ones(cross(...TPROCH_TYPE_SYLLABLES))),
  colors: tprochDist('colors', ones(TPROCH_COLORS)),
  nouns: tprochDist('nouns', [
    ['packages', 40], ['requests', 40], ['accounts', 40], ['deposits', 40], ['foxes', 20],
    ['ideas', 20], ['theodolites', 20], ['pinto beans', 20], ['instructions', 20], ['dependencies', 10],
    ['excuses', 10], ['platelets', 10], ['asymptotes', 10], ['courts', 5], ['dolphins', 5],
    ['multipliers', 1], ['sauternes', 1], ['warthogs', 1], ['frets', 1], ['dinos', 1],
    ['attainments', 1], ['somas', 1], ['Tiresias', 1], ['patterns', 1], ['forges', 1],
    ['braids', 1], ['frays', 1], ['warhorses', 1], ['dugouts', 1], ['notornis', 1],
    ['epitaphs', 1], ['pearls', 1], ['tithes', 1], ['waters', 1], ['orbits', 1],
    ['gifts', 1], ['sheaves', 1], ['depths', 1], ['sentiments', 1], ['decoys', 1],
    ['realms', 1], ['pains', 1], ['grouches', 1], ['escapades', 1], ['hockey players', 1],
  ]),
  verbs: tprochDist('verbs', [
    ['sleep', 20], ['wake', 20], ['are', 20], ['cajole', 20], ['haggle', 20],
    ['nag', 10], ['use', 10], ['boost', 10], ['affix', 5], ['detect', 5],
    ['integrate', 5], ['maintain', 1], ['nod', 1], ['was', 1], ['lose', 1],
    ['sublate', 1], ['solve', 1], ['thrash', 1], ['promise', 1], ['engage', 1],
    ['hinder', 1], ['print', 1], ['x-ray', 1], ['breach', 1], ['eat', 1],
    ['grow', 1], ['impress', 1], ['mold', 1], ['poach', 1], ['serve', 1],
    ['run', 1], ['dazzle', 1], ['snooze', 1], ['doze', 1], ['unwind', 1],
    ['kindle', 1], ['play', 1], ['hang', 1], ['believe', 1], ['doubt', 1],
  ]),
  adverbs: tprochDist('adverbs', [
    ['sometimes', 1], ['always', 1], ['never', 1], ['furiously', 50], ['slyly', 50],
    ['carefully', 50], ['blithely', 40], ['quickly', 30], ['fluffily', 20], ['slowly', 1],
    ['quietly', 1], ['ruthlessly', 1], ['thinly', 1], ['closely', 1], ['doggedly', 1],
    ['daringly', 1], ['bravely', 1], ['stealthily', 1], ['permanently', 1], ['enticingly', 1],
    ['idly', 1], ['busily', 1], ['regularly', 1], ['finally', 1], ['ironically', 1],
    ['evenly', 1], ['boldly', 1], ['silently', 1],
  ]),
  articles: tprochDist('articles', [['the', 50], ['a', 20], ['an', 5]]),
  prepositions: tprochDist('prepositions', [
    ['about', 50], ['above', 50], ['according to', 50], ['across', 50], ['after', 50],
    ['against', 40], ['along', 40], ['alongside of', 30], ['among', 30], ['around', 20],
    ['at', 10], ['atop', 1], ['before', 1], ['behind', 1], ['beneath', 1],
    ['beside', 1], ['besides', 1], ['between', 1], ['beyond', 1], ['by', 1],
    ['despite', 1], ['during', 1], ['except', 1], ['for', 1], ['from', 1],
    ['in place of', 1], ['inside', 1], ['instead of', 1], ['into', 1], ['near', 1],
    ['of', 1], ['on', 1], ['outside', 1], ['over', 1], ['past', 1],
    ['since', 1], ['through', 1], ['throughout', 1], ['to', 1], ['toward', 1],
    ['under', 1], ['until', 1], ['up', 1], ['upon', 1], ['whithout', 1],
    ['with', 1], ['within', 1],
  ]),
  auxillaries: tprochDist('auxillaries', [
    ['do', 1], ['may', 1], ['might', 1], ['shall', 1], ['will', 1], ['would', 1],
    ['can', 1], ['could', 1], ['should', 1], ['ought to', 1], ['must', 1], ['will have to', 1],
    ['shall have to', 1], ['could have to', 1], ['should have to', 1], ['must have to', 1], ['need to', 1], ['try to', 1],
  ]),
  terminators: tprochDist('terminators', [['.', 50], [';', 1], [':', 1], ['?', 1], ['!', 1], ['--', 1]]),
  adjectives: tprochDist('adjectives', [
    ['special', 20], ['pending', 20], ['unusual', 20], ['express', 20], ['furious', 1],
    ['sly', 1], ['careful', 1], ['blithe', 1], ['quick', 1], ['fluffy', 1],
    ['slow', 1], ['quiet', 1], ['ruthless', 1], ['thin', 1], ['close', 1],
    ['dogged', 1], ['daring', 1], ['brave', 1], ['stealthy', 1], ['permanent', 1],
    ['enticing', 1], ['idle', 1], ['busy', 1], ['regular', 50], ['final', 40],
    ['ironic', 40], ['even', 30], ['bold', 20], ['silent', 10],
  ]),
  /** Sentence forms: N noun phrase, V verb phrase, P prepositional phrase, T terminator. */
  grammar: tprochDist('grammar', [['N V T', 3], ['N V P T', 3], ['N V N T', 3], ['N P V N T', 1], ['N P V P T', 1]]),
  /** Noun phrases: N noun, J adjective, D adverb (A article is defined but no form uses it). */
  np: tprochDist('np', [['N', 10], ['J N', 20], ['J, J N', 10], ['D J N', 50]]),
  /** Verb phrases: V verb, X auxiliary, D adverb. */
  vp: tprochDist('vp', [['V', 30], ['X V', 1], ['V D', 40], ['X V D', 1]]),
  Q13a: tprochDist('Q13a', [['special', 20], ['pending', 20], ['unusual', 20], ['express', 20]]),
  Q13b: tprochDist('Q13b', [['packages', 40], ['requests', 40], ['accounts', 40], ['deposits', 40]]),
} as const;

export type TprochDistName = keyof typeof TPROCH_DISTS;

/** n_regionkey of each nation (running sum of the nations weights). */
export const TPROCH_NATION_REGION: readonly number[] = TPROCH_DISTS.nations.cumulative;
