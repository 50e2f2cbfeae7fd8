# tc-predict.gp - written by `cohcheck report timed`; run `gnuplot tc-predict.gp` here.
set terminal svg size 1100,450 dynamic font 'sans,11'
set output 'tc-predict.svg'
set datafile missing '?'
set key outside right top
set grid ytics
set border 3
set tics nomirror
set title "TC-Strong, TCW-FIXED and TCW with its lifetime predictor (seed 004 Fig. 10); RCC with its lease predictor (seed 003 Fig. 7)" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set yrange [0:*]
set ylabel "speedup (tcs)"
set xtics noenhanced
plot 'tc-predict.dat' using 2:xtic(1) title "tcs" noenhanced lc rgb '#1f77b4', 'tc-predict.dat' using 3:xtic(1) title "tcw" noenhanced lc rgb '#d62728', 'tc-predict.dat' using 4:xtic(1) title "tcw@predict=1" noenhanced lc rgb '#2ca02c', 'tc-predict.dat' using 5:xtic(1) title "rcc-vifix" noenhanced lc rgb '#9467bd', 'tc-predict.dat' using 6:xtic(1) title "rcc-vifix@predict=1" noenhanced lc rgb '#ff7f0e'
set output
set terminal pngcairo size 1100,450 font 'sans,10'
set output 'tc-predict.png'
set datafile missing '?'
set key outside right top
set grid ytics
set border 3
set tics nomirror
set title "TC-Strong, TCW-FIXED and TCW with its lifetime predictor (seed 004 Fig. 10); RCC with its lease predictor (seed 003 Fig. 7)" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set yrange [0:*]
set ylabel "speedup (tcs)"
set xtics noenhanced
plot 'tc-predict.dat' using 2:xtic(1) title "tcs" noenhanced lc rgb '#1f77b4', 'tc-predict.dat' using 3:xtic(1) title "tcw" noenhanced lc rgb '#d62728', 'tc-predict.dat' using 4:xtic(1) title "tcw@predict=1" noenhanced lc rgb '#2ca02c', 'tc-predict.dat' using 5:xtic(1) title "rcc-vifix" noenhanced lc rgb '#9467bd', 'tc-predict.dat' using 6:xtic(1) title "rcc-vifix@predict=1" noenhanced lc rgb '#ff7f0e'
set output
