# hs-relaxed.gp - written by `cohcheck report timed`; run `gnuplot hs-relaxed.gp` here.
set terminal svg size 1100,780 dynamic font 'sans,11'
set output 'hs-relaxed.svg'
set datafile missing '?'
set key outside right top
set grid ytics
set border 3
set tics nomirror
set multiplot layout 2,3 title "HeteroSync relaxed-atomic workloads (seed 002 Fig. 4)" noenhanced
set xlabel "CUs"
set ylabel "cycles"
set xtics ("1" 1, "2" 2, "4" 4, "8" 8, "15" 15)
set logscale x 2
set yrange [0:*]
set title "Flags" noenhanced
plot 'hs-relaxed.dat' index 0 using 1:2 with linespoints lw 2 pt 4 lc rgb '#1f77b4' title "gpu-wt" noenhanced, 'hs-relaxed.dat' index 0 using 1:3 with linespoints lw 2 pt 5 lc rgb '#d62728' title "gpu-wt@RELAXED=1" noenhanced, 'hs-relaxed.dat' index 0 using 1:4 with linespoints lw 2 pt 6 lc rgb '#2ca02c' title "gpu-hrf" noenhanced, 'hs-relaxed.dat' index 0 using 1:5 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "denovo" noenhanced, 'hs-relaxed.dat' index 0 using 1:6 with linespoints lw 2 pt 8 lc rgb '#ff7f0e' title "denovo@RELAXED=1" noenhanced
set title "HG" noenhanced
plot 'hs-relaxed.dat' index 1 using 1:2 with linespoints lw 2 pt 4 lc rgb '#1f77b4' title "gpu-wt" noenhanced, 'hs-relaxed.dat' index 1 using 1:3 with linespoints lw 2 pt 5 lc rgb '#d62728' title "gpu-wt@RELAXED=1" noenhanced, 'hs-relaxed.dat' index 1 using 1:4 with linespoints lw 2 pt 6 lc rgb '#2ca02c' title "gpu-hrf" noenhanced, 'hs-relaxed.dat' index 1 using 1:5 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "denovo" noenhanced, 'hs-relaxed.dat' index 1 using 1:6 with linespoints lw 2 pt 8 lc rgb '#ff7f0e' title "denovo@RELAXED=1" noenhanced
set title "HG-NO" noenhanced
plot 'hs-relaxed.dat' index 2 using 1:2 with linespoints lw 2 pt 4 lc rgb '#1f77b4' title "gpu-wt" noenhanced, 'hs-relaxed.dat' index 2 using 1:3 with linespoints lw 2 pt 5 lc rgb '#d62728' title "gpu-wt@RELAXED=1" noenhanced, 'hs-relaxed.dat' index 2 using 1:4 with linespoints lw 2 pt 6 lc rgb '#2ca02c' title "gpu-hrf" noenhanced, 'hs-relaxed.dat' index 2 using 1:5 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "denovo" noenhanced, 'hs-relaxed.dat' index 2 using 1:6 with linespoints lw 2 pt 8 lc rgb '#ff7f0e' title "denovo@RELAXED=1" noenhanced
set title "RC" noenhanced
plot 'hs-relaxed.dat' index 3 using 1:2 with linespoints lw 2 pt 4 lc rgb '#1f77b4' title "gpu-wt" noenhanced, 'hs-relaxed.dat' index 3 using 1:3 with linespoints lw 2 pt 5 lc rgb '#d62728' title "gpu-wt@RELAXED=1" noenhanced, 'hs-relaxed.dat' index 3 using 1:4 with linespoints lw 2 pt 6 lc rgb '#2ca02c' title "gpu-hrf" noenhanced, 'hs-relaxed.dat' index 3 using 1:5 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "denovo" noenhanced, 'hs-relaxed.dat' index 3 using 1:6 with linespoints lw 2 pt 8 lc rgb '#ff7f0e' title "denovo@RELAXED=1" noenhanced
set title "SL" noenhanced
plot 'hs-relaxed.dat' index 4 using 1:2 with linespoints lw 2 pt 4 lc rgb '#1f77b4' title "gpu-wt" noenhanced, 'hs-relaxed.dat' index 4 using 1:3 with linespoints lw 2 pt 5 lc rgb '#d62728' title "gpu-wt@RELAXED=1" noenhanced, 'hs-relaxed.dat' index 4 using 1:4 with linespoints lw 2 pt 6 lc rgb '#2ca02c' title "gpu-hrf" noenhanced, 'hs-relaxed.dat' index 4 using 1:5 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "denovo" noenhanced, 'hs-relaxed.dat' index 4 using 1:6 with linespoints lw 2 pt 8 lc rgb '#ff7f0e' title "denovo@RELAXED=1" noenhanced
set title "SC" noenhanced
plot 'hs-relaxed.dat' index 5 using 1:2 with linespoints lw 2 pt 4 lc rgb '#1f77b4' title "gpu-wt" noenhanced, 'hs-relaxed.dat' index 5 using 1:3 with linespoints lw 2 pt 5 lc rgb '#d62728' title "gpu-wt@RELAXED=1" noenhanced, 'hs-relaxed.dat' index 5 using 1:4 with linespoints lw 2 pt 6 lc rgb '#2ca02c' title "gpu-hrf" noenhanced, 'hs-relaxed.dat' index 5 using 1:5 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "denovo" noenhanced, 'hs-relaxed.dat' index 5 using 1:6 with linespoints lw 2 pt 8 lc rgb '#ff7f0e' title "denovo@RELAXED=1" noenhanced
unset multiplot
set output
set terminal pngcairo size 1100,780 font 'sans,10'
set output 'hs-relaxed.png'
set datafile missing '?'
set key outside right top
set grid ytics
set border 3
set tics nomirror
set multiplot layout 2,3 title "HeteroSync relaxed-atomic workloads (seed 002 Fig. 4)" noenhanced
set xlabel "CUs"
set ylabel "cycles"
set xtics ("1" 1, "2" 2, "4" 4, "8" 8, "15" 15)
set logscale x 2
set yrange [0:*]
set title "Flags" noenhanced
plot 'hs-relaxed.dat' index 0 using 1:2 with linespoints lw 2 pt 4 lc rgb '#1f77b4' title "gpu-wt" noenhanced, 'hs-relaxed.dat' index 0 using 1:3 with linespoints lw 2 pt 5 lc rgb '#d62728' title "gpu-wt@RELAXED=1" noenhanced, 'hs-relaxed.dat' index 0 using 1:4 with linespoints lw 2 pt 6 lc rgb '#2ca02c' title "gpu-hrf" noenhanced, 'hs-relaxed.dat' index 0 using 1:5 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "denovo" noenhanced, 'hs-relaxed.dat' index 0 using 1:6 with linespoints lw 2 pt 8 lc rgb '#ff7f0e' title "denovo@RELAXED=1" noenhanced
set title "HG" noenhanced
plot 'hs-relaxed.dat' index 1 using 1:2 with linespoints lw 2 pt 4 lc rgb '#1f77b4' title "gpu-wt" noenhanced, 'hs-relaxed.dat' index 1 using 1:3 with linespoints lw 2 pt 5 lc rgb '#d62728' title "gpu-wt@RELAXED=1" noenhanced, 'hs-relaxed.dat' index 1 using 1:4 with linespoints lw 2 pt 6 lc rgb '#2ca02c' title "gpu-hrf" noenhanced, 'hs-relaxed.dat' index 1 using 1:5 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "denovo" noenhanced, 'hs-relaxed.dat' index 1 using 1:6 with linespoints lw 2 pt 8 lc rgb '#ff7f0e' title "denovo@RELAXED=1" noenhanced
set title "HG-NO" noenhanced
plot 'hs-relaxed.dat' index 2 using 1:2 with linespoints lw 2 pt 4 lc rgb '#1f77b4' title "gpu-wt" noenhanced, 'hs-relaxed.dat' index 2 using 1:3 with linespoints lw 2 pt 5 lc rgb '#d62728' title "gpu-wt@RELAXED=1" noenhanced, 'hs-relaxed.dat' index 2 using 1:4 with linespoints lw 2 pt 6 lc rgb '#2ca02c' title "gpu-hrf" noenhanced, 'hs-relaxed.dat' index 2 using 1:5 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "denovo" noenhanced, 'hs-relaxed.dat' index 2 using 1:6 with linespoints lw 2 pt 8 lc rgb '#ff7f0e' title "denovo@RELAXED=1" noenhanced
set title "RC" noenhanced
plot 'hs-relaxed.dat' index 3 using 1:2 with linespoints lw 2 pt 4 lc rgb '#1f77b4' title "gpu-wt" noenhanced, 'hs-relaxed.dat' index 3 using 1:3 with linespoints lw 2 pt 5 lc rgb '#d62728' title "gpu-wt@RELAXED=1" noenhanced, 'hs-relaxed.dat' index 3 using 1:4 with linespoints lw 2 pt 6 lc rgb '#2ca02c' title "gpu-hrf" noenhanced, 'hs-relaxed.dat' index 3 using 1:5 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "denovo" noenhanced, 'hs-relaxed.dat' index 3 using 1:6 with linespoints lw 2 pt 8 lc rgb '#ff7f0e' title "denovo@RELAXED=1" noenhanced
set title "SL" noenhanced
plot 'hs-relaxed.dat' index 4 using 1:2 with linespoints lw 2 pt 4 lc rgb '#1f77b4' title "gpu-wt" noenhanced, 'hs-relaxed.dat' index 4 using 1:3 with linespoints lw 2 pt 5 lc rgb '#d62728' title "gpu-wt@RELAXED=1" noenhanced, 'hs-relaxed.dat' index 4 using 1:4 with linespoints lw 2 pt 6 lc rgb '#2ca02c' title "gpu-hrf" noenhanced, 'hs-relaxed.dat' index 4 using 1:5 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "denovo" noenhanced, 'hs-relaxed.dat' index 4 using 1:6 with linespoints lw 2 pt 8 lc rgb '#ff7f0e' title "denovo@RELAXED=1" noenhanced
set title "SC" noenhanced
plot 'hs-relaxed.dat' index 5 using 1:2 with linespoints lw 2 pt 4 lc rgb '#1f77b4' title "gpu-wt" noenhanced, 'hs-relaxed.dat' index 5 using 1:3 with linespoints lw 2 pt 5 lc rgb '#d62728' title "gpu-wt@RELAXED=1" noenhanced, 'hs-relaxed.dat' index 5 using 1:4 with linespoints lw 2 pt 6 lc rgb '#2ca02c' title "gpu-hrf" noenhanced, 'hs-relaxed.dat' index 5 using 1:5 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "denovo" noenhanced, 'hs-relaxed.dat' index 5 using 1:6 with linespoints lw 2 pt 8 lc rgb '#ff7f0e' title "denovo@RELAXED=1" noenhanced
unset multiplot
set output
