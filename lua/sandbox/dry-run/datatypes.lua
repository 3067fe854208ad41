-- Roblox's data types for a dry run: Vector3, Vector2, CFrame, Color3, UDim, UDim2, BrickColor,
-- Random and TweenInfo. Values are immutable, as in Roblox: their numbers sit in array slots the
-- metatable reads (v.X reads slot 1), and assigning a field raises "X cannot be assigned to".
-- typeof answers their Roblox names through dry.typeNames, keyed by metatable.

local dry = ...
-- The script shares these globals and may replace them; the emulation keeps the originals.
local pairs, ipairs, next, type, tostring, tonumber, select = pairs, ipairs, next, type, tostring, tonumber, select
local error, pcall, setmetatable, getmetatable, rawget = error, pcall, setmetatable, getmetatable, rawget
local table, string, math, coroutine, os = table, string, math, coroutine, os
local luauTostring, typeNames = dry.tostring, dry.typeNames
local sqrt, abs, floor, ceil, sin, cos, atan, asin, min, max = math.sqrt, math.abs, math.floor, math.ceil, math.sin,
  math.cos, math.atan, math.asin, math.min, math.max
local format, concat = string.format, table.concat

local datatypes = {}

local function numberArgument(value, position, fn)
  if value == nil then
    return 0
  end
  local number = tonumber(value)
  if number == nil then
    error(format("invalid argument #%d to '%s' (number expected, got %s)", position, fn, dry.typeof(value)), 3)
  end
  return number
end

local function immutable(typeName)
  return function(_, key)
    error(tostring(key) .. " cannot be assigned to", 2)
  end
end

local function missingMember(typeName)
  return function(_, key)
    error(tostring(key) .. " is not a valid member of " .. typeName, 2)
  end
end

-- A type's metatable: __index reads fields, then methods, else raises Roblox's message.
local function newType(typeName, fields, methods)
  local meta = { __newindex = immutable(typeName) }
  local missing = missingMember(typeName)
  meta.__index = function(value, key)
    local field = fields[key]
    if field then
      return field(value)
    end
    local method = methods[key]
    if method then
      return method
    end
    return missing(value, key)
  end
  typeNames[meta] = typeName
  return meta
end

local function is(value, meta)
  return getmetatable(value) == meta
end

local function join(...)
  local parts = table.pack(...)
  for i = 1, parts.n do
    parts[i] = luauTostring(parts[i])
  end
  return concat(parts, ", ", 1, parts.n)
end

---------------------------------------------------------------------------------------------------
-- Vector3

local Vector3Meta
local Vector3 = {}

local function vector3(x, y, z)
  return setmetatable({ x, y, z }, Vector3Meta)
end

local function checkVector3(value, position, fn)
  if not is(value, Vector3Meta) then
    error(format("invalid argument #%d to '%s' (Vector3 expected, got %s)", position, fn, dry.typeof(value)), 3)
  end
  return value
end

local function magnitude(v)
  return sqrt(v[1] * v[1] + v[2] * v[2] + v[3] * v[3])
end

Vector3Meta = newType("Vector3", {
  X = function(v)
    return v[1]
  end,
  Y = function(v)
    return v[2]
  end,
  Z = function(v)
    return v[3]
  end,
  Magnitude = magnitude,
  Unit = function(v)
    local length = magnitude(v)
    if length == 0 then
      return vector3(0 / 0, 0 / 0, 0 / 0)
    end
    return vector3(v[1] / length, v[2] / length, v[3] / length)
  end,
}, {
  Dot = function(a, b)
    checkVector3(b, 1, "Dot")
    return a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
  end,
  Cross = function(a, b)
    checkVector3(b, 1, "Cross")
    return vector3(a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1])
  end,
  Lerp = function(a, b, alpha)
    checkVector3(b, 1, "Lerp")
    alpha = numberArgument(alpha, 2, "Lerp")
    return vector3(a[1] + (b[1] - a[1]) * alpha, a[2] + (b[2] - a[2]) * alpha, a[3] + (b[3] - a[3]) * alpha)
  end,
  FuzzyEq = function(a, b, epsilon)
    checkVector3(b, 1, "FuzzyEq")
    epsilon = epsilon or 1e-5
    return abs(a[1] - b[1]) <= epsilon and abs(a[2] - b[2]) <= epsilon and abs(a[3] - b[3]) <= epsilon
  end,
  Abs = function(v)
    return vector3(abs(v[1]), abs(v[2]), abs(v[3]))
  end,
  Floor = function(v)
    return vector3(floor(v[1]), floor(v[2]), floor(v[3]))
  end,
  Ceil = function(v)
    return vector3(ceil(v[1]), ceil(v[2]), ceil(v[3]))
  end,
  Min = function(a, b)
    return vector3(min(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
  end,
  Max = function(a, b)
    return vector3(max(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
  end,
})

local function arithmetic(name, op)
  return function(a, b)
    local aVector, bVector = is(a, Vector3Meta), is(b, Vector3Meta)
    if aVector and bVector then
      return vector3(op(a[1], b[1]), op(a[2], b[2]), op(a[3], b[3]))
    elseif aVector and type(b) == "number" then
      return vector3(op(a[1], b), op(a[2], b), op(a[3], b))
    elseif bVector and type(a) == "number" then
      return vector3(op(a, b[1]), op(a, b[2]), op(a, b[3]))
    end
    error(format("invalid argument #2 (Vector3 expected, got %s)", dry.typeof(aVector and b or a)), 2)
  end
end

Vector3Meta.__add = arithmetic("add", function(a, b)
  return a + b
end)
Vector3Meta.__sub = arithmetic("sub", function(a, b)
  return a - b
end)
Vector3Meta.__mul = arithmetic("mul", function(a, b)
  return a * b
end)
Vector3Meta.__div = arithmetic("div", function(a, b)
  return a / b
end)
Vector3Meta.__unm = function(v)
  return vector3(-v[1], -v[2], -v[3])
end
Vector3Meta.__eq = function(a, b)
  return a[1] == b[1] and a[2] == b[2] and a[3] == b[3]
end
Vector3Meta.__tostring = function(v)
  return join(v[1], v[2], v[3])
end

function Vector3.new(x, y, z)
  return vector3(numberArgument(x, 1, "new"), numberArgument(y, 2, "new"), numberArgument(z, 3, "new"))
end
Vector3.zero = vector3(0, 0, 0)
Vector3.one = vector3(1, 1, 1)
Vector3.xAxis = vector3(1, 0, 0)
Vector3.yAxis = vector3(0, 1, 0)
Vector3.zAxis = vector3(0, 0, 1)

datatypes.Vector3 = Vector3
datatypes.vector3 = vector3
datatypes.Vector3Meta = Vector3Meta

---------------------------------------------------------------------------------------------------
-- Vector2

local Vector2Meta
local Vector2 = {}
local function vector2(x, y)
  return setmetatable({ x, y }, Vector2Meta)
end
Vector2Meta = newType("Vector2", {
  X = function(v)
    return v[1]
  end,
  Y = function(v)
    return v[2]
  end,
  Magnitude = function(v)
    return sqrt(v[1] * v[1] + v[2] * v[2])
  end,
  Unit = function(v)
    local length = sqrt(v[1] * v[1] + v[2] * v[2])
    return vector2(v[1] / length, v[2] / length)
  end,
}, {
  Dot = function(a, b)
    return a[1] * b[1] + a[2] * b[2]
  end,
  Lerp = function(a, b, alpha)
    return vector2(a[1] + (b[1] - a[1]) * alpha, a[2] + (b[2] - a[2]) * alpha)
  end,
})
local function arithmetic2(op)
  return function(a, b)
    if type(a) == "number" then
      return vector2(op(a, b[1]), op(a, b[2]))
    elseif type(b) == "number" then
      return vector2(op(a[1], b), op(a[2], b))
    end
    return vector2(op(a[1], b[1]), op(a[2], b[2]))
  end
end
Vector2Meta.__add = arithmetic2(function(a, b)
  return a + b
end)
Vector2Meta.__sub = arithmetic2(function(a, b)
  return a - b
end)
Vector2Meta.__mul = arithmetic2(function(a, b)
  return a * b
end)
Vector2Meta.__div = arithmetic2(function(a, b)
  return a / b
end)
Vector2Meta.__unm = function(v)
  return vector2(-v[1], -v[2])
end
Vector2Meta.__eq = function(a, b)
  return a[1] == b[1] and a[2] == b[2]
end
Vector2Meta.__tostring = function(v)
  return join(v[1], v[2])
end
function Vector2.new(x, y)
  return vector2(numberArgument(x, 1, "new"), numberArgument(y, 2, "new"))
end
Vector2.zero = vector2(0, 0)
Vector2.one = vector2(1, 1)
datatypes.Vector2 = Vector2

---------------------------------------------------------------------------------------------------
-- CFrame: a position and a rotation matrix, in GetComponents order (x, y, z, R00 .. R22).

local CFrameMeta
local CFrame = {}

local function cframe(x, y, z, r00, r01, r02, r10, r11, r12, r20, r21, r22)
  return setmetatable({ x, y, z, r00, r01, r02, r10, r11, r12, r20, r21, r22 }, CFrameMeta)
end

local function translation(x, y, z)
  return cframe(x, y, z, 1, 0, 0, 0, 1, 0, 0, 0, 1)
end

local function checkCFrame(value, position, fn)
  if not is(value, CFrameMeta) then
    error(format("invalid argument #%d to '%s' (CFrame expected, got %s)", position, fn, dry.typeof(value)), 3)
  end
  return value
end

local function multiply(a, b)
  local a00, a01, a02, a10, a11, a12, a20, a21, a22 = a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12]
  local b00, b01, b02, b10, b11, b12, b20, b21, b22 = b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12]
  return cframe(
    a00 * b[1] + a01 * b[2] + a02 * b[3] + a[1],
    a10 * b[1] + a11 * b[2] + a12 * b[3] + a[2],
    a20 * b[1] + a21 * b[2] + a22 * b[3] + a[3],
    a00 * b00 + a01 * b10 + a02 * b20,
    a00 * b01 + a01 * b11 + a02 * b21,
    a00 * b02 + a01 * b12 + a02 * b22,
    a10 * b00 + a11 * b10 + a12 * b20,
    a10 * b01 + a11 * b11 + a12 * b21,
    a10 * b02 + a11 * b12 + a12 * b22,
    a20 * b00 + a21 * b10 + a22 * b20,
    a20 * b01 + a21 * b11 + a22 * b21,
    a20 * b02 + a21 * b12 + a22 * b22
  )
end

local function pointToWorld(c, v)
  return vector3(
    c[4] * v[1] + c[5] * v[2] + c[6] * v[3] + c[1],
    c[7] * v[1] + c[8] * v[2] + c[9] * v[3] + c[2],
    c[10] * v[1] + c[11] * v[2] + c[12] * v[3] + c[3]
  )
end

local function inverse(c)
  -- The rotation is orthonormal: its inverse is its transpose.
  local x, y, z = c[1], c[2], c[3]
  return cframe(
    -(c[4] * x + c[7] * y + c[10] * z),
    -(c[5] * x + c[8] * y + c[11] * z),
    -(c[6] * x + c[9] * y + c[12] * z),
    c[4], c[7], c[10],
    c[5], c[8], c[11],
    c[6], c[9], c[12]
  )
end

local function rotationX(angle)
  local c, s = cos(angle), sin(angle)
  return cframe(0, 0, 0, 1, 0, 0, 0, c, -s, 0, s, c)
end
local function rotationY(angle)
  local c, s = cos(angle), sin(angle)
  return cframe(0, 0, 0, c, 0, s, 0, 1, 0, -s, 0, c)
end
local function rotationZ(angle)
  local c, s = cos(angle), sin(angle)
  return cframe(0, 0, 0, c, -s, 0, s, c, 0, 0, 0, 1)
end

local function clampUnit(value)
  return max(-1, min(1, value))
end

-- Rotation to a quaternion and back, for Lerp.
local function toQuaternion(c)
  local m00, m01, m02, m10, m11, m12, m20, m21, m22 = c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12]
  local trace = m00 + m11 + m22
  if trace > 0 then
    local s = sqrt(trace + 1) * 2
    return (m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, s / 4
  elseif m00 > m11 and m00 > m22 then
    local s = sqrt(1 + m00 - m11 - m22) * 2
    return s / 4, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s
  elseif m11 > m22 then
    local s = sqrt(1 + m11 - m00 - m22) * 2
    return (m01 + m10) / s, s / 4, (m12 + m21) / s, (m02 - m20) / s
  end
  local s = sqrt(1 + m22 - m00 - m11) * 2
  return (m02 + m20) / s, (m12 + m21) / s, s / 4, (m10 - m01) / s
end

local function fromQuaternion(x, y, z, qx, qy, qz, qw)
  local length = sqrt(qx * qx + qy * qy + qz * qz + qw * qw)
  qx, qy, qz, qw = qx / length, qy / length, qz / length, qw / length
  return cframe(
    x, y, z,
    1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qz * qw), 2 * (qx * qz + qy * qw),
    2 * (qx * qy + qz * qw), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qx * qw),
    2 * (qx * qz - qy * qw), 2 * (qy * qz + qx * qw), 1 - 2 * (qx * qx + qy * qy)
  )
end

local function lookAt(at, target, up)
  up = up or vector3(0, 1, 0)
  local look = (target - at).Unit
  local right = look:Cross(up).Unit
  if right ~= right or right[1] ~= right[1] then
    right = vector3(1, 0, 0)
  end
  local upward = right:Cross(look)
  return cframe(at[1], at[2], at[3], right[1], upward[1], -look[1], right[2], upward[2], -look[2], right[3],
    upward[3], -look[3])
end

local function rotationOnly(c)
  return cframe(0, 0, 0, c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12])
end

local function toOrientation(c)
  -- R = Ry * Rx * Rz (Roblox's Orientation order).
  return asin(-clampUnit(c[9])), atan(c[6], c[12]), atan(c[7], c[8])
end

local function toEulerXYZ(c)
  -- R = Rx * Ry * Rz.
  return atan(-c[9], c[12]), asin(clampUnit(c[6])), atan(-c[5], c[4])
end

CFrameMeta = newType("CFrame", {
  Position = function(c)
    return vector3(c[1], c[2], c[3])
  end,
  p = function(c)
    return vector3(c[1], c[2], c[3])
  end,
  X = function(c)
    return c[1]
  end,
  Y = function(c)
    return c[2]
  end,
  Z = function(c)
    return c[3]
  end,
  Rotation = rotationOnly,
  LookVector = function(c)
    return vector3(-c[6], -c[9], -c[12])
  end,
  RightVector = function(c)
    return vector3(c[4], c[7], c[10])
  end,
  UpVector = function(c)
    return vector3(c[5], c[8], c[11])
  end,
}, {
  Inverse = inverse,
  ToWorldSpace = function(c, other)
    return multiply(c, checkCFrame(other, 1, "ToWorldSpace"))
  end,
  ToObjectSpace = function(c, other)
    return multiply(inverse(c), checkCFrame(other, 1, "ToObjectSpace"))
  end,
  PointToWorldSpace = function(c, v)
    return pointToWorld(c, checkVector3(v, 1, "PointToWorldSpace"))
  end,
  PointToObjectSpace = function(c, v)
    return pointToWorld(inverse(c), checkVector3(v, 1, "PointToObjectSpace"))
  end,
  VectorToWorldSpace = function(c, v)
    return pointToWorld(rotationOnly(c), checkVector3(v, 1, "VectorToWorldSpace"))
  end,
  VectorToObjectSpace = function(c, v)
    return pointToWorld(inverse(rotationOnly(c)), checkVector3(v, 1, "VectorToObjectSpace"))
  end,
  GetComponents = function(c)
    return table.unpack(c, 1, 12)
  end,
  components = function(c)
    return table.unpack(c, 1, 12)
  end,
  ToEulerAnglesXYZ = toEulerXYZ,
  ToOrientation = toOrientation,
  Lerp = function(a, b, alpha)
    checkCFrame(b, 1, "Lerp")
    alpha = numberArgument(alpha, 2, "Lerp")
    local ax, ay, az, aw = toQuaternion(a)
    local bx, by, bz, bw = toQuaternion(b)
    local dot = ax * bx + ay * by + az * bz + aw * bw
    if dot < 0 then
      bx, by, bz, bw, dot = -bx, -by, -bz, -bw, -dot
    end
    local wa, wb
    if dot > 0.9995 then
      wa, wb = 1 - alpha, alpha
    else
      local theta = math.acos(dot)
      local s = sin(theta)
      wa, wb = sin((1 - alpha) * theta) / s, sin(alpha * theta) / s
    end
    return fromQuaternion(
      a[1] + (b[1] - a[1]) * alpha,
      a[2] + (b[2] - a[2]) * alpha,
      a[3] + (b[3] - a[3]) * alpha,
      ax * wa + bx * wb,
      ay * wa + by * wb,
      az * wa + bz * wb,
      aw * wa + bw * wb
    )
  end,
})

CFrameMeta.__mul = function(a, b)
  if is(b, CFrameMeta) then
    return multiply(a, b)
  elseif is(b, Vector3Meta) then
    return pointToWorld(a, b)
  end
  error(format("invalid argument #2 (CFrame or Vector3 expected, got %s)", dry.typeof(b)), 2)
end
CFrameMeta.__add = function(c, v)
  checkVector3(v, 2, "__add")
  return cframe(c[1] + v[1], c[2] + v[2], c[3] + v[3], table.unpack(c, 4, 12))
end
CFrameMeta.__sub = function(c, v)
  checkVector3(v, 2, "__sub")
  return cframe(c[1] - v[1], c[2] - v[2], c[3] - v[3], table.unpack(c, 4, 12))
end
CFrameMeta.__eq = function(a, b)
  for i = 1, 12 do
    if a[i] ~= b[i] then
      return false
    end
  end
  return true
end
CFrameMeta.__tostring = function(c)
  return join(table.unpack(c, 1, 12))
end

function CFrame.new(...)
  local count = select("#", ...)
  local first, second = ...
  if count == 0 then
    return translation(0, 0, 0)
  elseif is(first, Vector3Meta) then
    if second ~= nil then
      return lookAt(first, checkVector3(second, 2, "new"))
    end
    return translation(first[1], first[2], first[3])
  elseif count == 12 then
    local n = table.pack(...)
    for i = 1, 12 do
      n[i] = numberArgument(n[i], i, "new")
    end
    return cframe(table.unpack(n, 1, 12))
  elseif count == 7 then
    local x, y, z, qx, qy, qz, qw = ...
    return fromQuaternion(x, y, z, qx, qy, qz, qw)
  end
  local x, y, z = ...
  return translation(numberArgument(x, 1, "new"), numberArgument(y, 2, "new"), numberArgument(z, 3, "new"))
end

function CFrame.Angles(rx, ry, rz)
  rx, ry, rz = numberArgument(rx, 1, "Angles"), numberArgument(ry, 2, "Angles"), numberArgument(rz, 3, "Angles")
  return multiply(multiply(rotationX(rx), rotationY(ry)), rotationZ(rz))
end
CFrame.fromEulerAnglesXYZ = CFrame.Angles

function CFrame.fromOrientation(rx, ry, rz)
  rx, ry, rz = numberArgument(rx, 1, "fromOrientation"), numberArgument(ry, 2, "fromOrientation"),
    numberArgument(rz, 3, "fromOrientation")
  return multiply(multiply(rotationY(ry), rotationX(rx)), rotationZ(rz))
end
CFrame.fromEulerAnglesYXZ = CFrame.fromOrientation

function CFrame.lookAt(at, target, up)
  return lookAt(checkVector3(at, 1, "lookAt"), checkVector3(target, 2, "lookAt"), up)
end

function CFrame.fromAxisAngle(axis, angle)
  local unit = checkVector3(axis, 1, "fromAxisAngle").Unit
  local half = numberArgument(angle, 2, "fromAxisAngle") / 2
  local s = sin(half)
  return fromQuaternion(0, 0, 0, unit[1] * s, unit[2] * s, unit[3] * s, cos(half))
end

CFrame.identity = translation(0, 0, 0)

datatypes.CFrame = CFrame
datatypes.CFrameMeta = CFrameMeta
datatypes.translation = translation
datatypes.toOrientation = toOrientation
datatypes.withPosition = function(c, v)
  return cframe(v[1], v[2], v[3], table.unpack(c, 4, 12))
end
datatypes.multiply = multiply
datatypes.inverse = inverse

---------------------------------------------------------------------------------------------------
-- Color3

local Color3Meta
local Color3 = {}
local function color3(r, g, b)
  return setmetatable({ r, g, b }, Color3Meta)
end

local function toHSV(c)
  local r, g, b = c[1], c[2], c[3]
  local high, low = max(r, g, b), min(r, g, b)
  local delta = high - low
  local h = 0
  if delta > 0 then
    if high == r then
      h = ((g - b) / delta) % 6
    elseif high == g then
      h = (b - r) / delta + 2
    else
      h = (r - g) / delta + 4
    end
    h = h / 6
  end
  return h, high == 0 and 0 or delta / high, high
end

Color3Meta = newType("Color3", {
  R = function(c)
    return c[1]
  end,
  G = function(c)
    return c[2]
  end,
  B = function(c)
    return c[3]
  end,
}, {
  Lerp = function(a, b, alpha)
    return color3(a[1] + (b[1] - a[1]) * alpha, a[2] + (b[2] - a[2]) * alpha, a[3] + (b[3] - a[3]) * alpha)
  end,
  ToHSV = toHSV,
  ToHex = function(c)
    local function byte(v)
      return floor(max(0, min(1, v)) * 255 + 0.5)
    end
    return format("%02X%02X%02X", byte(c[1]), byte(c[2]), byte(c[3]))
  end,
})
Color3Meta.__eq = function(a, b)
  return a[1] == b[1] and a[2] == b[2] and a[3] == b[3]
end
Color3Meta.__tostring = function(c)
  return join(c[1], c[2], c[3])
end

function Color3.new(r, g, b)
  return color3(numberArgument(r, 1, "new"), numberArgument(g, 2, "new"), numberArgument(b, 3, "new"))
end
function Color3.fromRGB(r, g, b)
  return color3(numberArgument(r, 1, "fromRGB") / 255, numberArgument(g, 2, "fromRGB") / 255,
    numberArgument(b, 3, "fromRGB") / 255)
end
function Color3.fromHSV(h, s, v)
  h, s, v = numberArgument(h, 1, "fromHSV"), numberArgument(s, 2, "fromHSV"), numberArgument(v, 3, "fromHSV")
  local sector = floor(h * 6) % 6
  local f = h * 6 - floor(h * 6)
  local p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
  local rgb = ({ { v, t, p }, { q, v, p }, { p, v, t }, { p, q, v }, { t, p, v }, { v, p, q } })[sector + 1]
  return color3(rgb[1], rgb[2], rgb[3])
end
function Color3.fromHex(hex)
  local digits = string.match(tostring(hex), "^#?(%x%x%x%x%x%x)$")
  if not digits then
    error("Unable to convert characters to hex value", 2)
  end
  return color3(tonumber(digits:sub(1, 2), 16) / 255, tonumber(digits:sub(3, 4), 16) / 255,
    tonumber(digits:sub(5, 6), 16) / 255)
end
Color3.toHSV = toHSV

datatypes.Color3 = Color3
datatypes.Color3Meta = Color3Meta

---------------------------------------------------------------------------------------------------
-- BrickColor: a palette of the common colours; each is one shared value, so == compares them.

local BrickColorMeta
local BrickColor = {}
local PALETTE = {
  { 1, "White", 242, 243, 243 },
  { 194, "Medium stone grey", 163, 162, 165 },
  { 199, "Dark stone grey", 99, 95, 98 },
  { 26, "Black", 27, 42, 53 },
  { 21, "Bright red", 196, 40, 28 },
  { 1004, "Really red", 255, 0, 0 },
  { 23, "Bright blue", 13, 105, 172 },
  { 1010, "Really blue", 0, 0, 255 },
  { 37, "Bright green", 75, 151, 75 },
  { 1020, "Lime green", 0, 255, 0 },
  { 24, "Bright yellow", 245, 205, 48 },
  { 1009, "New Yeller", 255, 255, 0 },
  { 106, "Bright orange", 218, 133, 65 },
  { 1005, "Deep orange", 255, 175, 0 },
  { 1032, "Hot pink", 255, 0, 191 },
  { 1019, "Toothpaste", 0, 255, 255 },
  { 1001, "Institutional white", 248, 248, 248 },
  { 1003, "Really black", 17, 17, 17 },
  { 192, "Reddish brown", 105, 64, 40 },
  { 28, "Dark green", 40, 127, 71 },
  { 104, "Bright violet", 107, 50, 124 },
  { 5, "Brick yellow", 215, 197, 154 },
}
local byNumber, byName, ordered = {}, {}, {}

BrickColorMeta = newType("BrickColor", {
  Name = function(b)
    return b[2]
  end,
  Number = function(b)
    return b[1]
  end,
  Color = function(b)
    return b[3]
  end,
  r = function(b)
    return b[3][1]
  end,
  g = function(b)
    return b[3][2]
  end,
  b = function(b)
    return b[3][3]
  end,
}, {})
BrickColorMeta.__tostring = function(b)
  return b[2]
end

for _, entry in ipairs(PALETTE) do
  local value = setmetatable({ entry[1], entry[2], color3(entry[3] / 255, entry[4] / 255, entry[5] / 255) },
    BrickColorMeta)
  byNumber[entry[1]] = value
  byName[entry[2]] = value
  ordered[#ordered + 1] = value
end

local function nearest(color)
  local best, bestDistance = ordered[1], math.huge
  for _, candidate in ipairs(ordered) do
    local c = candidate[3]
    local distance = (c[1] - color[1]) ^ 2 + (c[2] - color[2]) ^ 2 + (c[3] - color[3]) ^ 2
    if distance < bestDistance then
      best, bestDistance = candidate, distance
    end
  end
  return best
end

function BrickColor.new(value, g, b)
  if type(value) == "string" then
    local found = byName[value]
    if not found then
      dry.notAvailable('BrickColor.new("' .. value .. '")', 2)
    end
    return found
  elseif is(value, Color3Meta) then
    return nearest(value)
  elseif type(value) == "number" and g ~= nil then
    return nearest(color3(value, g, b))
  elseif type(value) == "number" then
    return byNumber[value] or dry.notAvailable("BrickColor.new(" .. luauTostring(value) .. ")", 2)
  end
  error("invalid argument #1 to 'new' (string, number or Color3 expected)", 2)
end
BrickColor.palette = function(index)
  return ordered[(tonumber(index) or 0) % #ordered + 1]
end
function BrickColor.random()
  return ordered[math.random(1, #ordered)]
end
for name, number in pairs({ White = 1, Gray = 194, DarkGray = 199, Black = 26, Red = 21, Yellow = 24, Green = 28,
  Blue = 23 }) do
  BrickColor[name] = function()
    return byNumber[number]
  end
end
datatypes.BrickColor = BrickColor
datatypes.BrickColorMeta = BrickColorMeta
datatypes.nearestBrickColor = nearest

---------------------------------------------------------------------------------------------------
-- UDim and UDim2

local UDimMeta, UDim2Meta
local UDim, UDim2 = {}, {}
local function udim(scale, offset)
  return setmetatable({ scale, offset }, UDimMeta)
end
local function udim2(xs, xo, ys, yo)
  return setmetatable({ udim(xs, xo), udim(ys, yo) }, UDim2Meta)
end
UDimMeta = newType("UDim", {
  Scale = function(u)
    return u[1]
  end,
  Offset = function(u)
    return u[2]
  end,
}, {})
UDimMeta.__add = function(a, b)
  return udim(a[1] + b[1], a[2] + b[2])
end
UDimMeta.__sub = function(a, b)
  return udim(a[1] - b[1], a[2] - b[2])
end
UDimMeta.__eq = function(a, b)
  return a[1] == b[1] and a[2] == b[2]
end
UDimMeta.__tostring = function(u)
  return join(u[1], u[2])
end
UDim2Meta = newType("UDim2", {
  X = function(u)
    return u[1]
  end,
  Y = function(u)
    return u[2]
  end,
  Width = function(u)
    return u[1]
  end,
  Height = function(u)
    return u[2]
  end,
}, {
  Lerp = function(a, b, alpha)
    local function mix(p, q)
      return p + (q - p) * alpha
    end
    return udim2(mix(a[1][1], b[1][1]), mix(a[1][2], b[1][2]), mix(a[2][1], b[2][1]), mix(a[2][2], b[2][2]))
  end,
})
UDim2Meta.__add = function(a, b)
  return udim2(a[1][1] + b[1][1], a[1][2] + b[1][2], a[2][1] + b[2][1], a[2][2] + b[2][2])
end
UDim2Meta.__sub = function(a, b)
  return udim2(a[1][1] - b[1][1], a[1][2] - b[1][2], a[2][1] - b[2][1], a[2][2] - b[2][2])
end
UDim2Meta.__eq = function(a, b)
  return a[1] == b[1] and a[2] == b[2]
end
UDim2Meta.__tostring = function(u)
  return "{" .. tostring(u[1]) .. "}, {" .. tostring(u[2]) .. "}"
end
function UDim.new(scale, offset)
  return udim(numberArgument(scale, 1, "new"), numberArgument(offset, 2, "new"))
end
function UDim2.new(xs, xo, ys, yo)
  if is(xs, UDimMeta) then
    return udim2(xs[1], xs[2], xo[1], xo[2])
  end
  return udim2(numberArgument(xs, 1, "new"), numberArgument(xo, 2, "new"), numberArgument(ys, 3, "new"),
    numberArgument(yo, 4, "new"))
end
function UDim2.fromScale(x, y)
  return udim2(numberArgument(x, 1, "fromScale"), 0, numberArgument(y, 2, "fromScale"), 0)
end
function UDim2.fromOffset(x, y)
  return udim2(0, numberArgument(x, 1, "fromOffset"), 0, numberArgument(y, 2, "fromOffset"))
end
datatypes.UDim = UDim
datatypes.UDim2 = UDim2

---------------------------------------------------------------------------------------------------
-- Random: a seeded generator of its own, so a dry run with a seed repeats exactly.

local RandomMeta
local Random = {}
local randomState = setmetatable({}, { __mode = "k" })
local function nextUnit(generator)
  local seed = randomState[generator] * 6364136223846793005 + 1442695040888963407
  randomState[generator] = seed
  return ((seed >> 11) & ((1 << 53) - 1)) / (1 << 53)
end
RandomMeta = newType("Random", {}, {
  NextNumber = function(generator, low, high)
    low, high = low or 0, high or 1
    return low + (high - low) * nextUnit(generator)
  end,
  NextInteger = function(generator, low, high)
    low, high = numberArgument(low, 1, "NextInteger"), numberArgument(high, 2, "NextInteger")
    if high < low then
      error("invalid argument #2 to 'NextInteger' (interval is empty)", 2)
    end
    return floor(low + (high - low + 1) * nextUnit(generator))
  end,
})
function Random.new(seed)
  local generator = setmetatable({}, RandomMeta)
  -- The state is a Lua integer (the sandbox's numbers are doubles; `| 0` makes a whole one an integer).
  local number = tonumber(seed) or math.random(0, 1 << 30)
  randomState[generator] = number == number and floor(number % 2 ^ 53) | 0 or 0
  return generator
end
datatypes.Random = Random

---------------------------------------------------------------------------------------------------
-- TweenInfo and NumberRange: plain values (TweenService itself is not emulated).

local TweenInfoMeta = newType("TweenInfo", {
  Time = function(t)
    return t[1]
  end,
  EasingStyle = function(t)
    return t[2]
  end,
  EasingDirection = function(t)
    return t[3]
  end,
  RepeatCount = function(t)
    return t[4]
  end,
  Reverses = function(t)
    return t[5]
  end,
  DelayTime = function(t)
    return t[6]
  end,
}, {})
datatypes.TweenInfo = {
  new = function(time, style, direction, repeatCount, reverses, delayTime)
    return setmetatable({ time or 1, style or dry.Enum.EasingStyle.Quad, direction or dry.Enum.EasingDirection.Out,
      repeatCount or 0, reverses or false, delayTime or 0 }, TweenInfoMeta)
  end,
}

local NumberRangeMeta = newType("NumberRange", {
  Min = function(r)
    return r[1]
  end,
  Max = function(r)
    return r[2]
  end,
}, {})
NumberRangeMeta.__tostring = function(r)
  return join(r[1], r[2])
end
datatypes.NumberRange = {
  new = function(low, high)
    low = numberArgument(low, 1, "new")
    return setmetatable({ low, high == nil and low or numberArgument(high, 2, "new") }, NumberRangeMeta)
  end,
}

return datatypes
