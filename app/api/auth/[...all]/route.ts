import { getServices } from "@/modules/server/services";

export const dynamic = "force-dynamic";

async function handle(request: Request) {
  const auth = await getServices().auth();
  return auth.handler(request);
}

export { handle as GET, handle as POST };
