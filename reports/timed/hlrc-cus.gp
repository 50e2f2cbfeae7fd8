# hlrc-cus.gp - written by `cohcheck report timed`; run `gnuplot hlrc-cus.gp` here.
set terminal svg size 1100,450 dynamic font 'sans,11'
set output 'hlrc-cus.svg'
set datafile missing '?'
set key outside right top
set grid ytics
set border 3
set tics nomirror
set multiplot layout 1,1 title "Task queue by CU count (seed 001 Figs. 1, 5 and 6)" noenhanced
set xlabel "CUs"
set ylabel "speedup"
set xtics ("2" 2, "4" 4, "8" 8, "16" 16, "32" 32, "64" 64, "128" 128)
set logscale x 2
set yrange [0:*]
set title "taskqueue" noenhanced
plot 'hlrc-cus.dat' index 0 using 1:2 with linespoints lw 2 pt 4 lc rgb '#1f77b4' title "gpu-wt" noenhanced, 'hlrc-cus.dat' index 0 using 1:3 with linespoints lw 2 pt 5 lc rgb '#d62728' title "rsp" noenhanced, 'hlrc-cus.dat' index 0 using 1:4 with linespoints lw 2 pt 6 lc rgb '#2ca02c' title "hlrc" noenhanced, 'hlrc-cus.dat' index 0 using 1:5 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "denovo-b" noenhanced
unset multiplot
set output
set terminal pngcairo size 1100,450 font 'sans,10'
set output 'hlrc-cus.png'
set datafile missing '?'
set key outside right top
set grid ytics
set border 3
set tics nomirror
set multiplot layout 1,1 title "Task queue by CU count (seed 001 Figs. 1, 5 and 6)" noenhanced
set xlabel "CUs"
set ylabel "speedup"
set xtics ("2" 2, "4" 4, "8" 8, "16" 16, "32" 32, "64" 64, "128" 128)
set logscale x 2
set yrange [0:*]
set title "taskqueue" noenhanced
plot 'hlrc-cus.dat' index 0 using 1:2 with linespoints lw 2 pt 4 lc rgb '#1f77b4' title "gpu-wt" noenhanced, 'hlrc-cus.dat' index 0 using 1:3 with linespoints lw 2 pt 5 lc rgb '#d62728' title "rsp" noenhanced, 'hlrc-cus.dat' index 0 using 1:4 with linespoints lw 2 pt 6 lc rgb '#2ca02c' title "hlrc" noenhanced, 'hlrc-cus.dat' index 0 using 1:5 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "denovo-b" noenhanced
unset multiplot
set output
