// Bad input: every error is an Error with code InvalidInput (or Unsupported) whose message
// names the file and the JSON path or position, and nothing crashes.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "routesolve/error.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"
#include "routesolve/validator.hpp"
#include "test_support.hpp"

namespace routesolve::io {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Runs f, which must throw Error with `code`; returns the message.
std::string error_of(const std::function<void()>& f, ErrorCode code = ErrorCode::InvalidInput) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw a non-routesolve exception: " << e.what();
    return e.what();
  }
  ADD_FAILURE() << "did not throw";
  return {};
}

std::string problem_error(const std::string& json, ErrorCode code = ErrorCode::InvalidInput) {
  return error_of([&] { (void)parse_vroom_problem(json, "fleet.json"); }, code);
}

// A valid problem with one placeholder, replaced by the text under test.
std::string with_vehicle(const std::string& vehicle) {
  return R"({"jobs":[{"id":1,"location_index":1}],"vehicles":[)" + vehicle +
         R"(],"matrices":{"car":{"durations":[[0,1],[1,0]]}}})";
}
std::string with_job(const std::string& job) {
  return R"({"jobs":[)" + job +
         R"(],"vehicles":[{"id":1,"start_index":0}],"matrices":{"car":{"durations":[[0,1],[1,0]]}}})";
}
std::string with_matrices(const std::string& matrices) {
  return R"({"jobs":[{"id":1,"location_index":1}],"vehicles":[{"id":1,"start_index":0}],"matrices":)" +
         matrices + "}";
}

// ---- malformed JSON ---------------------------------------------------------------------------

TEST(BadVroomProblem, MalformedJsonGivesLineAndColumn) {
  const auto msg = problem_error("{\n  \"vehicles\": [\n    {\"id\": 1,}\n  ]\n}");
  EXPECT_THAT(msg, HasSubstr("fleet.json:3:"));
  EXPECT_THAT(msg, HasSubstr("malformed JSON"));
  EXPECT_THAT(msg, Not(HasSubstr("[json.exception")));
}

TEST(BadVroomProblem, InvalidLiteralColumn) {
  const auto msg = problem_error("{\"vehicles\": tru}");
  EXPECT_THAT(msg, HasSubstr("fleet.json:1:"));
  EXPECT_THAT(msg, HasSubstr("malformed JSON"));
}

TEST(BadVroomProblem, TruncatedJson) {
  const auto msg = problem_error("{\"vehicles\": [\n{\"id\": 1");
  EXPECT_THAT(msg, HasSubstr("fleet.json:2:"));
  EXPECT_THAT(msg, HasSubstr("malformed JSON"));
}

TEST(BadVroomProblem, NumberOverflowIsMalformedWithPosition) {
  const auto msg = problem_error("{\"vehicles\": [{\"id\": 1,\n \"speed_factor\": 1e400}]}");
  EXPECT_THAT(msg, HasSubstr("fleet.json:2:"));
  EXPECT_THAT(msg, HasSubstr("overflow"));
}

TEST(BadVroomProblem, EmptyFile) {
  const auto msg = problem_error("");
  EXPECT_THAT(msg, HasSubstr("fleet.json"));
  EXPECT_THAT(msg, HasSubstr("empty"));
  EXPECT_THAT(problem_error(" \n\t\r\n"), HasSubstr("empty"));
}

TEST(BadVroomProblem, BinaryGarbageWithNulBytes) {
  const std::string garbage(
      "\x7f"
      "ELF\x02\x01\x01\0\0\0\0\0",
      12);
  const auto msg = problem_error(garbage);
  EXPECT_THAT(msg, HasSubstr("fleet.json"));
  EXPECT_THAT(msg, HasSubstr("binary"));
}

TEST(BadVroomProblem, BinaryGarbageWithoutNulIsMalformedAndPrintable) {
  const auto msg = problem_error("\xff\xfe\x01\x02garbage");
  EXPECT_THAT(msg, HasSubstr("fleet.json:1:1"));
  EXPECT_THAT(msg, HasSubstr("malformed JSON"));
  for (const char c : msg)
    EXPECT_GE(static_cast<unsigned char>(c), 0x20) << "raw byte in message: " << msg;
}

TEST(BadVroomProblem, DeeplyNestedJsonDoesNotOverflowTheStack) {
  const std::string deep =
      "{\"vehicles\":" + std::string(200000, '[') + std::string(200000, ']') + "}";
  const auto msg = problem_error(deep);
  EXPECT_THAT(msg, HasSubstr("fleet.json:1:"));
  EXPECT_THAT(msg, HasSubstr("nested deeper than"));
}

TEST(BadVroomProblem, BracketsInsideStringsDoNotCount) {
  const std::string text =
      with_job(R"({"id":1,"location_index":1,"description":")" + std::string(500, '[') + R"("})");
  EXPECT_EQ(parse_vroom_problem(text, "fleet.json").jobs[0].description.size(), 500u);
}

// ---- structure and types ----------------------------------------------------------------------

TEST(BadVroomProblem, TopLevelNotAnObject) {
  EXPECT_THAT(problem_error("[1, 2]"),
              HasSubstr("fleet.json: expected a JSON object at the top level, got an array"));
}

TEST(BadVroomProblem, MissingVehicles) {
  EXPECT_THAT(problem_error(R"({"jobs":[]})"),
              HasSubstr("fleet.json: missing required field 'vehicles'"));
}

TEST(BadVroomProblem, JobsNotAnArray) {
  EXPECT_THAT(problem_error(R"({"jobs":{"id":1},"vehicles":[]})"),
              HasSubstr("fleet.json: jobs: expected an array, got an object"));
}

TEST(BadVroomProblem, JobNotAnObject) {
  EXPECT_THAT(problem_error(with_job("42")),
              HasSubstr("fleet.json: jobs[0]: expected an object, got 42"));
}

TEST(BadVroomProblem, MissingJobId) {
  EXPECT_THAT(problem_error(with_job(R"({"location_index":1})")),
              HasSubstr("fleet.json: jobs[0]: missing required field 'id'"));
}

TEST(BadVroomProblem, JobIdWrongType) {
  EXPECT_THAT(problem_error(with_job(R"({"id":"a","location_index":1})")),
              HasSubstr("fleet.json: jobs[0].id: expected a non-negative integer, got \"a\""));
}

TEST(BadVroomProblem, JobWithoutLocation) {
  EXPECT_THAT(problem_error(with_job(R"({"id":1,"location_index":1},{"id":2,"service":3})")),
              HasSubstr("fleet.json: jobs[1]: needs a 'location' or a 'location_index'"));
}

TEST(BadVroomProblem, NegativeService) {
  EXPECT_THAT(problem_error(with_job(R"({"id":1,"location_index":1,"service":-5})")),
              HasSubstr("fleet.json: jobs[0].service: expected a non-negative integer, got -5"));
}

TEST(BadVroomProblem, NonIntegerSetup) {
  EXPECT_THAT(problem_error(with_job(R"({"id":1,"location_index":1,"setup":1.5})")),
              HasSubstr("fleet.json: jobs[0].setup: expected a non-negative integer, got 1.5"));
}

TEST(BadVroomProblem, HugeServiceIsOutOfRange) {
  EXPECT_THAT(problem_error(with_job(R"({"id":1,"location_index":1,"service":1e30})")),
              HasSubstr("fleet.json: jobs[0].service: expected a non-negative integer"));
}

TEST(BadVroomProblem, NegativeCapacityNamesTheField) {
  const std::string text =
      R"({"jobs":[{"id":1,"location_index":1}],"vehicles":[{"id":1,"start_index":0,"capacity":[5]},)"
      R"({"id":2,"start_index":0,"capacity":[-3]}],"matrices":{"car":{"durations":[[0,1],[1,0]]}}})";
  EXPECT_THAT(
      problem_error(text),
      HasSubstr("fleet.json: vehicles[1].capacity[0]: expected a non-negative integer, got -3"));
}

TEST(BadVroomProblem, InconsistentAmountDimensions) {
  const std::string text =
      R"({"jobs":[{"id":1,"location_index":1,"delivery":[1,2]}],)"
      R"("vehicles":[{"id":1,"start_index":0,"capacity":[10]}],"matrices":{"car":{"durations":[[0,1],[1,0]]}}})";
  const auto msg = problem_error(text);
  EXPECT_THAT(
      msg, HasSubstr(
               "fleet.json: vehicles[0].capacity: has 1 dimension(s), but jobs[0].delivery has 2"));
}

TEST(BadVroomProblem, EmptyAmountAmongNonEmpty) {
  const auto msg = problem_error(with_job(
      R"({"id":1,"location_index":1,"delivery":[1]},{"id":2,"location_index":1,"pickup":[]})"));
  EXPECT_THAT(msg, HasSubstr("fleet.json: jobs[1].pickup: has 0 dimension(s)"));
}

TEST(BadVroomProblem, AmountNotAnArray) {
  EXPECT_THAT(problem_error(with_job(R"({"id":1,"location_index":1,"delivery":5})")),
              HasSubstr("fleet.json: jobs[0].delivery: expected an array, got 5"));
}

TEST(BadVroomProblem, DuplicateJobIds) {
  EXPECT_THAT(problem_error(with_job(R"({"id":1,"location_index":1},{"id":1,"location_index":0})")),
              HasSubstr("fleet.json: jobs[1].id: duplicate job id 1 (already used by jobs[0].id)"));
}

TEST(BadVroomProblem, DuplicateVehicleIds) {
  EXPECT_THAT(problem_error(with_vehicle(R"({"id":3,"start_index":0},{"id":3,"start_index":1})")),
              HasSubstr("fleet.json: vehicles[1].id: duplicate vehicle id 3"));
}

TEST(BadVroomProblem, DuplicateShipmentPickupIds) {
  const std::string text =
      R"({"shipments":[{"pickup":{"id":1,"location_index":0},"delivery":{"id":1,"location_index":1}},)"
      R"({"pickup":{"id":1,"location_index":1},"delivery":{"id":2,"location_index":0}}],)"
      R"("vehicles":[{"id":1,"start_index":0}],"matrix":[[0,1],[1,0]]})";
  EXPECT_THAT(problem_error(text),
              HasSubstr("fleet.json: shipments[1].pickup.id: duplicate pickup id 1"));
}

TEST(BadVroomProblem, ShipmentWithoutDelivery) {
  const std::string text = R"({"shipments":[{"pickup":{"id":1,"location_index":0}}],)"
                           R"("vehicles":[{"id":1,"start_index":0}],"matrix":[[0,1],[1,0]]})";
  EXPECT_THAT(problem_error(text),
              HasSubstr("fleet.json: shipments[0]: missing required field 'delivery'"));
}

TEST(BadVroomProblem, ShipmentStepWithoutLocation) {
  const std::string text =
      R"({"shipments":[{"pickup":{"id":1,"location_index":0},"delivery":{"id":1}}],)"
      R"("vehicles":[{"id":1,"start_index":0}],"matrix":[[0,1],[1,0]]})";
  EXPECT_THAT(
      problem_error(text),
      HasSubstr("fleet.json: shipments[0].delivery: needs a 'location' or a 'location_index'"));
}

TEST(BadVroomProblem, TimeWindowStartAfterEnd) {
  EXPECT_THAT(
      problem_error(with_job(R"({"id":1,"location_index":1,"time_windows":[[0,10],[50,10]]})")),
      HasSubstr("fleet.json: jobs[0].time_windows[1]: start 50 is after end 10"));
}

TEST(BadVroomProblem, TimeWindowWrongShape) {
  EXPECT_THAT(problem_error(with_job(R"({"id":1,"location_index":1,"time_windows":[[0,10,20]]})")),
              HasSubstr("fleet.json: jobs[0].time_windows[0]: expected [start, end]"));
  EXPECT_THAT(problem_error(with_vehicle(R"({"id":1,"start_index":0,"time_window":[5]})")),
              HasSubstr("fleet.json: vehicles[0].time_window: expected [start, end]"));
}

TEST(BadVroomProblem, LocationWrongShape) {
  EXPECT_THAT(problem_error(with_job(R"({"id":1,"location":[2.3]})")),
              HasSubstr("fleet.json: jobs[0].location: expected [lon, lat]"));
  EXPECT_THAT(problem_error(with_vehicle(R"({"id":1,"start":[2.3,"x"]})")),
              HasSubstr("fleet.json: vehicles[0].start[1]: expected a number, got \"x\""));
}

TEST(BadVroomProblem, PriorityOutOfRange) {
  EXPECT_THAT(
      problem_error(with_job(R"({"id":1,"location_index":1,"priority":101})")),
      HasSubstr("fleet.json: jobs[0].priority: expected an integer from 0 to 100, got 101"));
}

TEST(BadVroomProblem, DescriptionNotAString) {
  EXPECT_THAT(problem_error(with_job(R"({"id":1,"location_index":1,"description":null})")),
              HasSubstr("fleet.json: jobs[0].description: expected a string, got null"));
}

TEST(BadVroomProblem, SkillsOutOfRange) {
  EXPECT_THAT(problem_error(with_job(R"({"id":1,"location_index":1,"skills":[1,4294967296]})")),
              HasSubstr("fleet.json: jobs[0].skills[1]: expected a non-negative integer"));
}

TEST(BadVroomProblem, SpeedFactorNotPositive) {
  EXPECT_THAT(problem_error(with_vehicle(R"({"id":1,"start_index":0,"speed_factor":0})")),
              HasSubstr("fleet.json: vehicles[0].speed_factor: expected a positive number, got 0"));
}

TEST(BadVroomProblem, CostsWrongType) {
  EXPECT_THAT(
      problem_error(with_vehicle(R"({"id":1,"start_index":0,"costs":{"per_hour":true}})")),
      HasSubstr(
          "fleet.json: vehicles[0].costs.per_hour: expected a non-negative integer, got true"));
}

TEST(BadVroomProblem, BreakWithoutId) {
  EXPECT_THAT(problem_error(with_vehicle(R"({"id":1,"start_index":0,"breaks":[{"service":10}]})")),
              HasSubstr("fleet.json: vehicles[0].breaks[0]: missing required field 'id'"));
}

// ---- matrices -----------------------------------------------------------------------------------

TEST(BadVroomProblem, RaggedMatrix) {
  EXPECT_THAT(problem_error(with_matrices(R"({"car":{"durations":[[0,1],[1]]}})")),
              HasSubstr("fleet.json: matrices.car.durations[1]: row has 1 entries, expected 2"));
}

TEST(BadVroomProblem, NonSquareMatrix) {
  EXPECT_THAT(problem_error(with_matrices(R"({"car":{"durations":[[0,1,2],[1,0,2]]}})")),
              HasSubstr("fleet.json: matrices.car.durations[0]: row has 3 entries, expected 2"));
}

TEST(BadVroomProblem, MatrixRowNotAnArray) {
  EXPECT_THAT(problem_error(with_matrices(R"({"car":{"durations":[[0,1],7]}})")),
              HasSubstr("fleet.json: matrices.car.durations[1]: expected an array, got 7"));
}

TEST(BadVroomProblem, NegativeMatrixEntry) {
  EXPECT_THAT(
      problem_error(with_matrices(R"({"car":{"durations":[[0,1],[-1,0]]}})")),
      HasSubstr(
          "fleet.json: matrices.car.durations[1][0]: expected a non-negative integer, got -1"));
}

TEST(BadVroomProblem, DistancesOfAnotherSize) {
  EXPECT_THAT(
      problem_error(with_matrices(R"({"car":{"durations":[[0,1],[1,0]],"distances":[[0]]}})")),
      HasSubstr("fleet.json: matrices.car.distances: 1x1 matrix, but durations are 2x2"));
}

TEST(BadVroomProblem, ProfileWithoutDurations) {
  EXPECT_THAT(problem_error(with_matrices(R"({"car":{"distances":[[0,1],[1,0]]}})")),
              HasSubstr("fleet.json: matrices.car: missing required field 'durations'"));
}

TEST(BadVroomProblem, MatricesNotAnObject) {
  EXPECT_THAT(problem_error(with_matrices("[[0,1],[1,0]]")),
              HasSubstr("fleet.json: matrices: expected an object"));
}

TEST(BadVroomProblem, LocationIndexOutOfRange) {
  EXPECT_THAT(problem_error(with_job(R"({"id":1,"location_index":2})")),
              HasSubstr("fleet.json: jobs[0].location_index: location index 2 is out of range"));
}

TEST(BadVroomProblem, ProfileWithoutMatrices) {
  EXPECT_THAT(problem_error(with_vehicle(R"({"id":1,"start_index":0,"profile":"bike"})")),
              HasSubstr("fleet.json: vehicles[0].profile: no matrices for profile 'bike'"));
}

// ---- solutions ---------------------------------------------------------------------------------

ProblemPtr small_problem() {
  return Problem::create(parse_vroom_problem(
      R"({"jobs":[{"id":1,"location_index":1}],"vehicles":[{"id":1,"start_index":0}],"matrix":[[0,1],[1,0]]})",
      "fleet.json"));
}

std::string solution_error(const std::string& json) {
  const ProblemPtr p = small_problem();
  return error_of([&] { (void)parse_vroom_solution(json, "sol.json", *p); });
}

TEST(BadVroomSolution, Malformed) {
  EXPECT_THAT(solution_error("{\"routes\": [}"), HasSubstr("sol.json:1:"));
}

TEST(BadVroomSolution, RoutesNotAnArray) {
  EXPECT_THAT(solution_error(R"({"routes":{}})"),
              HasSubstr("sol.json: routes: expected an array, got an object"));
}

TEST(BadVroomSolution, RouteWithoutVehicle) {
  EXPECT_THAT(solution_error(R"({"routes":[{"steps":[]}]})"),
              HasSubstr("sol.json: routes[0]: missing required field 'vehicle'"));
}

TEST(BadVroomSolution, StepWithoutType) {
  EXPECT_THAT(solution_error(R"({"routes":[{"vehicle":1,"steps":[{"type":"start"},{"id":1}]}]})"),
              HasSubstr("sol.json: routes[0].steps[1]: missing required field 'type'"));
}

TEST(BadVroomSolution, UnknownStepType) {
  EXPECT_THAT(solution_error(R"({"routes":[{"vehicle":1,"steps":[{"type":"teleport"}]}]})"),
              HasSubstr("sol.json: routes[0].steps[0].type: unknown step type \"teleport\""));
}

TEST(BadVroomSolution, NegativeArrival) {
  EXPECT_THAT(
      solution_error(R"({"routes":[{"vehicle":1,"steps":[{"type":"job","id":1,"arrival":-4}]}]})"),
      HasSubstr("sol.json: routes[0].steps[0].arrival: expected a non-negative integer, got -4"));
}

TEST(BadVroomSolution, UnknownUnassignedType) {
  EXPECT_THAT(solution_error(R"({"unassigned":[{"id":1,"type":"parcel"}]})"),
              HasSubstr("sol.json: unassigned[0].type: unknown task type \"parcel\""));
}

TEST(BadVroomSolution, UnknownIdsReachTheValidator) {
  const ProblemPtr p = small_problem();
  const Solution s = parse_vroom_solution(
      R"({"routes":[{"vehicle":9,"steps":[{"type":"job","id":5}]}]})", "sol.json", *p);
  ASSERT_EQ(s.routes.size(), 1u);
  EXPECT_EQ(s.routes[0].vehicle, kNone);
  EXPECT_EQ(s.routes[0].steps[0].task, kNone);
  const ValidationReport report = validate(*p, s);
  bool unknown_vehicle = false;
  for (const auto& v : report.violations)
    unknown_vehicle = unknown_vehicle || v.kind == ViolationKind::UnknownVehicle;
  EXPECT_TRUE(unknown_vehicle) << report.to_text();
}

// ---- files and formats -------------------------------------------------------------------------

using BadFiles = test::ScratchDirTest;

TEST_F(BadFiles, MissingFile) {
  const auto file = dir_ / "nope.json";
  const auto msg = error_of([&] { (void)read_problem(file); });
  EXPECT_THAT(msg, HasSubstr(file.string()));
  EXPECT_THAT(msg, HasSubstr("no such file"));
  EXPECT_THAT(error_of([&] { (void)read_vroom_problem(file); }), HasSubstr("nope.json"));
}

TEST_F(BadFiles, Directory) {
  EXPECT_THAT(error_of([&] { (void)read_text_file(dir_); }), HasSubstr("is a directory"));
}

TEST_F(BadFiles, EmptyFileIsNoKnownFormat) {
  const auto file = write("empty.txt", "");
  const auto msg = error_of([&] { (void)detect_format(file); });
  EXPECT_THAT(msg, HasSubstr("empty.txt"));
  EXPECT_THAT(msg, HasSubstr("empty"));
  EXPECT_THAT(msg, HasSubstr("VROOM JSON"));
}

TEST_F(BadFiles, ByteOrderMarkOnlyIsEmpty) {
  const auto file = write("bom.json", "\xEF\xBB\xBF\n");
  EXPECT_THAT(error_of([&] { (void)detect_format(file); }), HasSubstr("empty"));
}

TEST_F(BadFiles, BinaryFileIsNoKnownFormat) {
  const auto file = write("blob.bin", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
  const auto msg = error_of([&] { (void)read_problem(file); });
  EXPECT_THAT(msg, HasSubstr("blob.bin"));
  EXPECT_THAT(msg, HasSubstr("binary"));
}

TEST_F(BadFiles, UnknownTextIsNoKnownFormat) {
  const auto file = write("notes.txt", "dear diary,\ntoday I routed nothing.\n");
  const auto msg = error_of([&] { (void)detect_format(file); });
  EXPECT_THAT(msg, HasSubstr("notes.txt"));
  EXPECT_THAT(msg, HasSubstr("Solomon"));
}

TEST_F(BadFiles, VroomErrorsNameTheFile) {
  const auto file = write("fleet.json", R"({"vehicles":[{"id":1,"capacity":[-3]}]})");
  EXPECT_THAT(error_of([&] { (void)read_problem(file); }),
              HasSubstr(file.string() +
                        ": vehicles[0].capacity[0]: expected a non-negative integer, got -3"));
}

TEST(BadFormatName, IsRejected) {
  EXPECT_THAT(error_of([] { (void)parse_input_format("xml"); }), HasSubstr("xml"));
}

}  // namespace
}  // namespace routesolve::io
