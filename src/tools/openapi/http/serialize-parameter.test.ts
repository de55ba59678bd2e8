/** OpenAPI's style examples (color = "blue" / ["blue","black","brown"] / {R:100,G:200,B:150}). */
import { describe, expect, it } from "vitest";
import type { ApiParameter } from "../api-description.js";
import {
  serializeCookieParameter,
  serializeHeaderParameter,
  serializePathParameter,
  serializeQueryParameter,
} from "./serialize-parameter.js";

const parameter = (
  location: ApiParameter["in"],
  style: string,
  explode: boolean,
  extra: Partial<ApiParameter> = {},
) =>
  ({
    name: "color",
    in: location,
    required: false,
    schema: {},
    style,
    explode,
    allowReserved: false,
    json: false,
    ...extra,
  }) as ApiParameter;

const STRING = "blue";
const ARRAY = ["blue", "black", "brown"];
const OBJECT = { R: 100, G: 200, B: 150 };

describe("path parameters", () => {
  it.each([
    ["simple", false, "blue", "blue,black,brown", "R,100,G,200,B,150"],
    ["simple", true, "blue", "blue,black,brown", "R=100,G=200,B=150"],
    ["label", false, ".blue", ".blue,black,brown", ".R,100,G,200,B,150"],
    ["label", true, ".blue", ".blue.black.brown", ".R=100.G=200.B=150"],
    ["matrix", false, ";color=blue", ";color=blue,black,brown", ";color=R,100,G,200,B,150"],
    ["matrix", true, ";color=blue", ";color=blue;color=black;color=brown", ";R=100;G=200;B=150"],
  ])("%s explode=%s", (style, explode, string, array, object) => {
    const described = parameter("path", style, explode);
    expect(serializePathParameter(described, STRING)).toBe(string);
    expect(serializePathParameter(described, ARRAY)).toBe(array);
    expect(serializePathParameter(described, OBJECT)).toBe(object);
  });

  it("percent-encodes a value so it stays one segment", () => {
    expect(serializePathParameter(parameter("path", "simple", false), "a/b c?d#e")).toBe("a%2Fb%20c%3Fd%23e");
    expect(serializePathParameter(parameter("path", "simple", false), "it's (x)*")).toBe(
      "it%27s%20%28x%29%2A",
    );
  });
});

describe("query parameters", () => {
  it.each([
    ["form", true, ["color=blue"], ["color=blue", "color=black", "color=brown"], ["R=100", "G=200", "B=150"]],
    ["form", false, ["color=blue"], ["color=blue,black,brown"], ["color=R,100,G,200,B,150"]],
    [
      "spaceDelimited",
      false,
      ["color=blue"],
      ["color=blue%20black%20brown"],
      ["color=R%20100%20G%20200%20B%20150"],
    ],
    ["pipeDelimited", false, ["color=blue"], ["color=blue|black|brown"], ["color=R|100|G|200|B|150"]],
    [
      "deepObject",
      true,
      ["color=blue"],
      ["color=blue", "color=black", "color=brown"],
      ["color[R]=100", "color[G]=200", "color[B]=150"],
    ],
  ])("%s explode=%s", (style, explode, string, array, object) => {
    const described = parameter("query", style, explode);
    expect(serializeQueryParameter(described, STRING)).toEqual(string);
    expect(serializeQueryParameter(described, ARRAY)).toEqual(array);
    expect(serializeQueryParameter(described, OBJECT)).toEqual(object);
  });

  it("encodes & and = inside values, unless allowReserved keeps reserved characters", () => {
    expect(serializeQueryParameter(parameter("query", "form", true), "a&b=c/d")).toEqual([
      "color=a%26b%3Dc%2Fd",
    ]);
    expect(
      serializeQueryParameter(parameter("query", "form", true, { allowReserved: true }), "a/b:c d"),
    ).toEqual(["color=a/b:c%20d"]);
  });

  it("allowReserved keeps the query's separators encoded: a value never adds a parameter", () => {
    const reserved = parameter("query", "form", true, { allowReserved: true });
    expect(serializeQueryParameter(reserved, "a&api_key=attacker;admin=true+x#frag")).toEqual([
      "color=a%26api_key%3Dattacker%3Badmin%3Dtrue%2Bx%23frag",
    ]);
    const [query] = serializeQueryParameter(reserved, "a&api_key=attacker&admin=true");
    expect([...new URLSearchParams(query).keys()]).toEqual(["color"]);
  });

  it("sends a content-described parameter as JSON text", () => {
    expect(serializeQueryParameter(parameter("query", "form", true, { json: true }), { a: [1] })).toEqual([
      "color=%7B%22a%22%3A%5B1%5D%7D",
    ]);
  });
});

describe("header and cookie parameters", () => {
  it("headers use the simple style, unencoded", () => {
    expect(serializeHeaderParameter(parameter("header", "simple", false), ARRAY)).toBe("blue,black,brown");
    expect(serializeHeaderParameter(parameter("header", "simple", true), OBJECT)).toBe("R=100,G=200,B=150");
    expect(serializeHeaderParameter(parameter("header", "simple", false), OBJECT)).toBe("R,100,G,200,B,150");
  });

  it("cookies use the form style with values encoded (a ; cannot start another cookie)", () => {
    expect(serializeCookieParameter(parameter("cookie", "form", true), "a; admin=1")).toEqual([
      "color=a%3B%20admin%3D1",
    ]);
    expect(serializeCookieParameter(parameter("cookie", "form", false), ARRAY)).toEqual([
      "color=blue,black,brown",
    ]);
  });
});
