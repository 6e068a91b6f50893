"""The reference MCP client (PyPI's mcp) against `loomscope mcp`: lists the tools, calls each given
one and prints what came back, a JSON line a call (every content block's text). Usage: client.py
CALLS.json COMMAND ARGS..."""
import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main():
    calls = json.load(open(sys.argv[1]))
    params = StdioServerParameters(command=sys.argv[2], args=sys.argv[3:])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            print(json.dumps({"tools": sorted(t.name for t in tools.tools)}))
            for call in calls:
                r = await session.call_tool(call["tool"], call["arguments"])
                print(json.dumps({"tool": call["tool"], "error": r.is_error, "text": r.content[0].text,
                                  "more": [c.text for c in r.content[1:]], "meta": r.meta}))
            await session.send_ping()
            print(json.dumps({"ping": "answered"}))


asyncio.run(main())
