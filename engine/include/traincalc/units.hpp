// Units at the edges, base units inside: bytes, FLOPs, seconds. Every conversion the engine
// makes between a user-facing unit and a base unit goes through one of these.
#pragma once

namespace traincalc::units {

inline constexpr double seconds_per_hour = 3600.0;
inline constexpr double seconds_per_day = 86400.0;
inline constexpr double hours_per_day = 24.0;
// 8760 hours a year / 12: the month that cloud providers bill by.
inline constexpr double default_hours_per_month = 730.0;

inline constexpr double flops_per_tflops = 1e12;  // decimal, as vendors quote peaks
inline constexpr double bytes_per_gb = 1e9;       // decimal gigabyte
inline constexpr double bytes_per_gib = 1073741824.0;
inline constexpr double bytes_per_mib = 1048576.0;
inline constexpr double bytes_per_tb = 1e12;  // decimal terabyte (memory bandwidth in TB/s)
inline constexpr double bits_per_byte = 8.0;

constexpr double tflops_to_flops(double tflops) {
  return tflops * flops_per_tflops;
}
constexpr double gb_to_bytes(double gb) {
  return gb * bytes_per_gb;
}
constexpr double gib_to_bytes(double gib) {
  return gib * bytes_per_gib;
}
constexpr double tbs_to_bytes_per_second(double tbs) {
  return tbs * bytes_per_tb;
}
// A network link in Gbit/s, in bytes per second.
constexpr double gbit_to_bytes(double gbit) {
  return gbit * bytes_per_gb / bits_per_byte;
}
constexpr double seconds_to_days(double seconds) {
  return seconds / seconds_per_day;
}
constexpr double seconds_to_hours(double seconds) {
  return seconds / seconds_per_hour;
}

}  // namespace traincalc::units
