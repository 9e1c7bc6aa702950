# operability_polar.gp - written by pipelay 0.1.0 from the CSV files of the run in the directory above.
# Edit and rerun with: gnuplot operability_polar.gp (from any directory: it changes to its own);
# it writes operability_polar.png and operability_polar.svg beside itself.
reset
if (strlen(ARG0) > 0) {
  d = ARG0; i = strlen(d)
  while (i > 0 && d[i:i] ne "/") { i = i - 1 }
  if (i > 0) { cd d[1:i] }
}
set datafile separator comma
set encoding utf8
run_name = 'examples/operability/jlay12_operability.yaml'
T(s) = strlen(run_name) > 0 ? s . "\n" . run_name : s
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
      set terminal pngcairo size 900,800 noenhanced font "sans,11"
    } else {
      set terminal png size 900,800 noenhanced
    }
  } else {
    set terminal svg size 900,800 dynamic noenhanced font "sans,11" background "white"
  }
  set output "operability_polar." . fmt
  set autoscale
  set autoscale xfix
  set offsets 0, 0, 0, 0
  set grid
  f = '../allowable.csv'
  set title T('Allowable significant wave height against heading (waves travelling towards)')
  unset grid
  set polar
  set angles degrees
  set theta counterclockwise right
  set size square
  set border polar
  unset xtics
  unset ytics
  set ttics 0, 30
  set grid polar 30 r
  set rlabel 'allowable Hs [m]'
  set key outside right top
  set rrange [0:6]
  set rtics 0, 1 axis nomirror
  plot \
    f using "heading_deg":(column("tp_s") == 6 ? column("allowable_hs_interpolated_m") : NaN) with lines lw 2 lc 1 title sprintf('Tp = %g s (interpolated)', 6), \
    f using "heading_deg":(column("tp_s") == 6 ? column("allowable_hs_m") : NaN) with points pt 7 lc 1 notitle, \
    f using "heading_deg":(column("tp_s") == 8 ? column("allowable_hs_interpolated_m") : NaN) with lines lw 2 lc 2 title sprintf('Tp = %g s (interpolated)', 8), \
    f using "heading_deg":(column("tp_s") == 8 ? column("allowable_hs_m") : NaN) with points pt 7 lc 2 notitle, \
    f using "heading_deg":(column("tp_s") == 10 ? column("allowable_hs_interpolated_m") : NaN) with lines lw 2 lc 3 title sprintf('Tp = %g s (interpolated)', 10), \
    f using "heading_deg":(column("tp_s") == 10 ? column("allowable_hs_m") : NaN) with points pt 7 lc 3 notitle, \
    f using "heading_deg":(column("tp_s") == 12 ? column("allowable_hs_interpolated_m") : NaN) with lines lw 2 lc 4 title sprintf('Tp = %g s (interpolated)', 12), \
    f using "heading_deg":(column("tp_s") == 12 ? column("allowable_hs_m") : NaN) with points pt 7 lc 4 notitle
  set output
}
