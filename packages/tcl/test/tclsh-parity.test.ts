import { describe, expect, it } from 'vitest';
import { run } from './run.js';

/**
 * Scripts and the exact output tclsh 8.6 printed for them (each expected text was
 * produced by running the same script through tclsh 8.6.13).
 */
const CASES: { name: string; script: string; expected: string }[] = [
  { name: "parsing: comments, semicolons, backslash-newline", script: "# a comment \\\nstill comment\nset a 1; set b 2 ;# trailing\nputs [expr {$a + \\\n  $b}]", expected: "3\n" },
  { name: "parsing: quotes, braces, $var, ${var}, arrays, [cmd]", script: "set x 5; set arr(k) 7; set key k; set {odd name} 9\nputs \"x=$x ${x}y $arr(k) $arr($key) [set {odd name}] {braces} \\$lit\"\nputs {no $subst [here]}", expected: "x=5 5y 7 7 9 {braces} $lit\nno $subst [here]\n" },
  { name: "parsing: backslash escapes", script: "puts \"a\\tb\\x41\\u0042\\101\\\\\\[\\]\\$\"", expected: "a\tbABA\\[]$\n" },
  { name: "parsing: {*} expansion", script: "set l {a b c}; puts [list {*}$l d {*}{e f}]", expected: "a b c d e f\n" },
  { name: "parsing: nested command substitution with quotes", script: "puts [string length \"[string repeat \"ab\" 2]]x\"]", expected: "6\n" },
  { name: "expr: integers and doubles as Tcl keeps them", script: "puts [expr 7/2],[expr 7/2.0],[expr -7/2],[expr -7%3],[expr 7%-3],[expr 2**10],[expr 2**0.5],[expr 2**64],[expr 1e16],[expr 1e17],[expr 1/3.0],[expr 0.00001],[expr 3.0],[expr 10/4*1.0]", expected: "3,3.5,-4,2,-2,1024,1.4142135623730951,18446744073709551616,10000000000000000.0,1e+17,0.3333333333333333,1e-5,3.0,2.0\n" },
  { name: "expr: precedence and associativity", script: "puts [expr 2+3*4],[expr (2+3)*4],[expr 2**3**2],[expr -2**2],[expr 1-2-3],[expr 8/2/2],[expr 1<<2+1],[expr 5&3|8^1],[expr !0&&1||0],[expr 1?2:3?4:5]", expected: "14,20,512,4,-4,2,8,9,1,2\n" },
  { name: "expr: comparisons, string operators, in/ni", script: "puts [expr {\"abc\" < \"abd\"}],[expr {\"10\" == 10.0}],[expr {\"a\" eq \"a\"}],[expr {\"a\" ne \"b\"}],[expr {3 in {1 2 3}}],[expr {4 ni {1 2}}],[expr {\"0x10\" + 1}],[expr {\" 5 \" * 2}]", expected: "1,1,1,1,1,1,17,10\n" },
  { name: "expr: functions", script: "puts [expr int(7.9)],[expr int(-7.9)],[expr round(2.5)],[expr round(-2.5)],[expr abs(-3)],[expr abs(-3.5)],[expr max(1,4,2)],[expr min(2.5,3)],[expr double(7)],[expr sqrt(16)],[expr pow(2,10)],[expr floor(2.7)],[expr ceil(2.1)],[expr wide(2)**62],[expr entier(1e10)],[expr bool(2)],[expr fmod(7,3)]", expected: "7,-7,3,-3,3,3.5,4,2.5,7.0,4.0,1024.0,2.0,3.0,4611686018427387904,10000000000,1,1.0\n" },
  { name: "expr: ternary is lazy, and/or short-circuit", script: "set n 0; expr {1 ? [incr n] : [incr n 10]}; expr {0 && [incr n 100]}; expr {1 || [incr n 100]}; puts $n", expected: "1\n" },
  { name: "expr: boolean words", script: "puts [expr {true && yes}],[expr {!off}],[expr 1 ? y : n],[expr {\"no\" || 0}]", expected: "1,1,y,0\n" },
  { name: "expr: errors", script: "puts [catch {expr {1/0}} m]:$m\nputs [catch {expr {\"abc\" + 1}} m]:$m\nputs [catch {expr {2.5 % 2}} m]:$m", expected: "1:divide by zero\n1:can't use non-numeric string as operand of \"+\"\n1:can't use floating-point value as operand of \"%\"\n" },
  { name: "control: if elseif else, while, for, break, continue", script: "set out {}\nfor {set i 0} {$i < 10} {incr i} { if {$i == 2} continue elseif {$i > 5} break else { lappend out $i } }\nset j 0; while {$j < 5} { incr j 2 }\nif {$j == 6} then { puts \"$out $j\" } else { puts no }", expected: "0 1 3 4 5 6\n" },
  { name: "control: foreach with several variables and lists", script: "foreach {a b} {1 2 3 4 5} { puts -nonewline \"$a-$b \" }; puts \"\"\nforeach x {a b} y {1 2 3} { puts -nonewline \"$x$y \" }; puts \"\"\nputs [lmap v {1 2 3} { expr {$v * 2} }]", expected: "1-2 3-4 5- \na1 b2 3 \n2 4 6\n" },
  { name: "control: switch exact, glob, fall-through, default", script: "foreach v {abc x z} { switch -glob -- $v { a* { puts glob } x - y { puts fall } default { puts def } } }", expected: "glob\nfall\ndef\n" },
  { name: "control: catch, error, return codes", script: "puts [catch {error boom} m]:$m\nputs [catch {return -code error xx} m]:$m\nproc f {} { return -code error fromproc }\nputs [catch f m]:$m\nputs [catch {break}]:[catch {continue}]:[catch {set ok 1}]", expected: "1:boom\n2:xx\n1:fromproc\n3:4:0\n" },
  { name: "procs: defaults, args, recursion, global, upvar, uplevel", script: "proc add {a {b 10} args} { expr {$a + $b + [llength $args]} }\nproc fact n { if {$n <= 1} { return 1 }; expr {$n * [fact [expr {$n-1}]]} }\nset g 5; proc useg {} { global g; incr g }\nproc setit {name} { upvar $name v; set v changed }\nproc lvl {} { uplevel 1 {set fromup 7} }\nset z orig; setit z; lvl\nputs \"[add 1] [add 1 2] [add 1 2 x y] [fact 25] [useg] $g $z $fromup\"\nputs [catch {add} m]:$m", expected: "11 3 5 15511210043330985984000000 6 6 changed 7\n1:wrong # args: should be \"add a ?b? ?arg ...?\"\n" },
  { name: "strings: string subcommands", script: "set s \"  Hello World  \"\nputs \"[string trim $s]|[string trimleft $s]|[string trimright $s x]|[string toupper abc]|[string tolower XYZ]|[string length héllo]\"\nputs \"[string range abcdef 1 end-1] [string index abc end] [string first b abcb] [string last b abcb] [string repeat ab 3]\"\nputs \"[string map {a 1 bb 2} aabbcc] [string equal -nocase A a] [string compare a b] [string compare b a] [string match {*.tcl} x.tcl] [string match {[a-c]?} bz]\"\nputs \"[string is integer 12] [string is integer 1.5] [string is double 1.5e3] [string is boolean yes] [string is integer -strict {}] [string is integer {}]\"", expected: "Hello World|Hello World  |  Hello World  |ABC|xyz|5\nbcde c 1 3 ababab\n112cc 1 -1 1 1 1\n1 0 1 1 0 1\n" },
  { name: "strings: format", script: "puts [format \"%5d|%-6s|%.2f|%x|%X|%o|%05.1f|%+d|%e|%g|%c|%%|%s\" 42 ab 3.14159 255 255 8 3.14159 5 1234.5 0.0001 65 x]\nputs [format \"%3\\$s %1\\$s\" a b c]\nputs [format \"%*d|%-*d|\" 5 1 4 2]", expected: "   42|ab    |3.14|ff|FF|10|003.1|+5|1.234500e+03|0.0001|A|%|x\nc a\n    1|2   |\n" },
  { name: "lists: list quoting and commands", script: "puts [list a {b c} \"\" \"d\\$\" \\{ \"x y\"]\nputs \"[llength {a {b c} \"d e\" f\\ g}] [lindex {a {b {c d}}} 1 1 0] [lrange {a b c d} 1 end] [linsert {a b} 1 x] [lreplace {a b c} 1 1 X Y]\"\nputs \"[lsort {b a C}] [lsort -decreasing -integer {3 10 2}] [lsort -unique {b a b}] [lsort -dictionary {a10 a9 A1}] [lsort -real {2.5 1 10}]\"\nputs \"[lsearch {a b c} b] [lsearch -exact {a b c} z] [lsearch -all {a b a} a] [lsearch -inline {foo bar baz} ba*] [lreverse {1 2 3}]\"\nputs \"[join {a b c} ,] [split a,b,,c ,] [concat {a b} { c } d] [lassign {1 2 3} p q] $p $q\"\nset l {}; lappend l a \"b c\"; lset l 0 z; puts $l", expected: "a {b c} {} {d$} \\{ {x y}\n4 c b c d a x b a X Y c\nC a b 10 3 2 a b A1 a9 a10 1 2.5 10\n1 -1 0 2 bar 3 2 1\na,b,c a b {} c a b c d 3 1 2\nz {b c}\n" },
  { name: "dict: create get set exists keys for", script: "set d [dict create a 1 b 2]; dict set d c 3; dict set n x y 1\nputs \"$d [dict get $d b] [dict exists $d z] [dict keys $d] [dict size $d] [dict get $n x y] [dict values $d]\"\ndict for {k v} $d { puts -nonewline \"$k=$v \" }; puts \"\"\ndict incr d a 5; dict lappend d l x; dict unset d b; puts $d", expected: "a 1 b 2 c 3 2 0 a b c 3 1 1 2 3\na=1 b=2 c=3 \na 6 c 3 l x\n" },
  { name: "variables: incr, append, unset, info exists, arrays", script: "incr fresh; incr fresh 4; append s a b; append s c\narray set arr {k1 v1 k2 v2}\nputs \"$fresh $s [info exists s] [info exists nothere] [info exists arr(k1)] [lsort [array names arr]] [array size arr]\"\nunset s; puts [info exists s]\nputs [catch {set nope} m]:$m\nputs [catch {set arr} m]:$m", expected: "5 abc 1 0 1 k1 k2 2\n0\n1:can't read \"nope\": no such variable\n1:can't read \"arr\": variable is array\n" },
  { name: "eval: eval and subst", script: "set cmd {puts hello}; eval $cmd\neval puts \"evaled\"\nset a 3; puts [subst {$a [expr 1+1]}]|[subst -nocommands {$a [x]}]", expected: "hello\nevaled\n3 2|3 [x]\n" },
  { name: "regexp: regexp and regsub", script: "puts \"[regexp {(\\d+)-(\\d+)} {ab 12-34} all m1 m2] $all $m1 $m2 [regsub -all {o} {foo boo} 0] [regsub {(b)(o)} bob {\\2\\1&} r] $r\"", expected: "1 12-34 12 34 f00 b00 1 obbob\n" },
  { name: "clock: clock format", script: "puts [clock format 86400 -format \"%Y-%m-%d %j %a %b %H:%M:%S\" -gmt true]", expected: "1970-01-02 002 Fri Jan 00:00:00\n" },
];

describe('the interpreter prints what tclsh prints', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const r = await run(c.script);
      expect(r.error).toBeUndefined();
      expect(r.out).toBe(c.expected);
    });
  }
});
