// What a failed device count tells the user, for the driver errors seen in the field, and how the
// PTX JIT switches and their aliases combine (no GPU needed).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <map>
#include <optional>
#include <string>

#include "harness/device/environment.hpp"

namespace archbench {
namespace {

TEST(DeviceCountError, SaysWhatToDo) {
  const std::string no_driver = explain_device_count_error(cudaErrorInsufficientDriver, {0}, {13000});
  EXPECT_NE(no_driver.find("cudaErrorInsufficientDriver (35)"), std::string::npos) << no_driver;
  EXPECT_NE(no_driver.find("No NVIDIA driver"), std::string::npos) << no_driver;
  const std::string old_driver = explain_device_count_error(cudaErrorInsufficientDriver, {12080}, {13000});
  EXPECT_NE(old_driver.find("install driver r580"), std::string::npos) << old_driver;
  const std::string no_device = explain_device_count_error(cudaErrorNoDevice, {13000}, {13000});
  EXPECT_NE(no_device.find("CUDA_VISIBLE_DEVICES"), std::string::npos) << no_device;
  EXPECT_NE(no_device.find("(100)"), std::string::npos) << no_device;
  const std::string mismatch = explain_device_count_error(cudaErrorSystemDriverMismatch, {13000}, {13000});
  EXPECT_NE(mismatch.find("reload the nvidia kernel modules"), std::string::npos) << mismatch;
}

// Every combination of the two spellings, each unset, on ("1"), off ("0") or empty, for both switches.
TEST(EnvironmentJitSwitch, ThePtxSpellingDecidesWhenSetElseTheAlias) {
  const std::optional<std::string> values[] = {std::nullopt, "1", "0", ""};
  const auto on = [](const std::optional<std::string>& v) { return v && !v->empty() && *v != "0"; };
  for (const JitSwitch s : kJitSwitches) {
    const auto [ptx_name, alias_name] = jit_switch_names(s);
    for (const auto& ptx : values) {
      for (const auto& alias : values) {
        std::map<std::string, std::string> env{{"CUDA_VISIBLE_DEVICES", "0"}};
        if (ptx) env[std::string(ptx_name)] = *ptx;
        if (alias) env[std::string(alias_name)] = *alias;
        const std::string label = std::string(ptx_name) + "=" + ptx.value_or("(unset)") + " " +
                                  std::string(alias_name) + "=" + alias.value_or("(unset)");
        const auto setting = jit_switch(env, s);
        if (!ptx && !alias) {
          EXPECT_FALSE(setting) << label;
          continue;
        }
        ASSERT_TRUE(setting) << label;
        EXPECT_EQ(setting->name, ptx ? ptx_name : alias_name) << label;
        EXPECT_EQ(setting->value, ptx ? *ptx : *alias) << label;
        EXPECT_EQ(setting->on, ptx ? on(ptx) : on(alias)) << label;
      }
    }
  }
}

TEST(EnvironmentJitSwitch, NamesAndTheDeviceFactsFollowTheRule) {
  EXPECT_EQ(jit_switch_names(JitSwitch::DisablePtxJit)[0], "CUDA_DISABLE_PTX_JIT");
  EXPECT_EQ(jit_switch_names(JitSwitch::DisablePtxJit)[1], "CUDA_DISABLE_JIT");
  EXPECT_EQ(jit_switch_names(JitSwitch::ForcePtxJit)[0], "CUDA_FORCE_PTX_JIT");
  EXPECT_EQ(jit_switch_names(JitSwitch::ForcePtxJit)[1], "CUDA_FORCE_JIT");

  // The two switches are independent, and Environment::facts reads them through the same rule.
  Environment env;
  env.cuda_env = {{"CUDA_FORCE_PTX_JIT", "0"}, {"CUDA_FORCE_JIT", "1"}, {"CUDA_DISABLE_JIT", "1"}};
  const DeviceInfo d;
  EXPECT_FALSE(env.facts(d).force_ptx_jit);
  EXPECT_TRUE(env.facts(d).jit_disabled);
  env.cuda_env = {{"CUDA_FORCE_JIT", "1"}};
  EXPECT_TRUE(env.facts(d).force_ptx_jit);
  EXPECT_FALSE(env.facts(d).jit_disabled);
}

}  // namespace
}  // namespace archbench
