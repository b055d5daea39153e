-- shift-for-test: a stand-in for the test kit's test-clock.lua in LuaScriptClockShiftTest.
local shifted = true
