# tcw-lifetime.gp - written by `cohcheck report timed`; run `gnuplot tcw-lifetime.gp` here.
set terminal svg size 1100,450 dynamic font 'sans,11'
set output 'tcw-lifetime.svg'
set datafile missing '?'
set key outside right top
set grid ytics
set border 3
set tics nomirror
set multiplot layout 1,2 title "TC-Weak fixed-lifetime sweep (seed 004 Fig. 11)" noenhanced
set xlabel "lifetime"
set ylabel "speedup"
set yrange [0:*]
set offsets 0.3, 0.3, 0, 0
set title "mp" noenhanced
plot 'tcw-lifetime.dat' index 0 using 0:2:xtic(1) with linespoints lw 2 pt 4 lc rgb '#1f77b4' title "tcw" noenhanced, 'tcw-lifetime.dat' index 0 using 0:3:xtic(1) with linespoints lw 2 pt 5 lc rgb '#d62728' title "nol1" noenhanced
set title "taskqueue" noenhanced
plot 'tcw-lifetime.dat' index 1 using 0:2:xtic(1) with linespoints lw 2 pt 4 lc rgb '#1f77b4' title "tcw" noenhanced, 'tcw-lifetime.dat' index 1 using 0:3:xtic(1) with linespoints lw 2 pt 5 lc rgb '#d62728' title "nol1" noenhanced
unset multiplot
set output
set terminal pngcairo size 1100,450 font 'sans,10'
set output 'tcw-lifetime.png'
set datafile missing '?'
set key outside right top
set grid ytics
set border 3
set tics nomirror
set multiplot layout 1,2 title "TC-Weak fixed-lifetime sweep (seed 004 Fig. 11)" noenhanced
set xlabel "lifetime"
set ylabel "speedup"
set yrange [0:*]
set offsets 0.3, 0.3, 0, 0
set title "mp" noenhanced
plot 'tcw-lifetime.dat' index 0 using 0:2:xtic(1) with linespoints lw 2 pt 4 lc rgb '#1f77b4' title "tcw" noenhanced, 'tcw-lifetime.dat' index 0 using 0:3:xtic(1) with linespoints lw 2 pt 5 lc rgb '#d62728' title "nol1" noenhanced
set title "taskqueue" noenhanced
plot 'tcw-lifetime.dat' index 1 using 0:2:xtic(1) with linespoints lw 2 pt 4 lc rgb '#1f77b4' title "tcw" noenhanced, 'tcw-lifetime.dat' index 1 using 0:3:xtic(1) with linespoints lw 2 pt 5 lc rgb '#d62728' title "nol1" noenhanced
unset multiplot
set output
