// Bench-only driver for Pascal Pons's solver (github PascalPons/connect4, built from its own
// checkout by bench/connect4.py): reads "moves [score]" lines, resets the solver (as his
// published test protocol does, untimed), solves, prints "moves score nodes cpu_microseconds".
#include "Solver.hpp"
#include <ctime>
#include <iostream>
#include <sstream>
#include <string>

using namespace GameSolver::Connect4;

int main(int argc, char** argv) {
  bool weak = argc > 1 && std::string(argv[1]) == "-w";
  Solver solver;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream fields(line);
    std::string moves;
    fields >> moves;
    Position P;
    if (P.play(moves) != moves.size()) {
      std::cout << moves << " invalid" << std::endl;
      continue;
    }
    solver.reset();
    std::clock_t start = std::clock();
    int score = solver.solve(P, weak);
    std::clock_t end = std::clock();
    double micros = 1e6 * double(end - start) / CLOCKS_PER_SEC;
    std::cout << moves << " " << score << " " << solver.getNodeCount() << " " << micros
              << std::endl;
  }
  return 0;
}
