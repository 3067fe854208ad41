loadstring(game:GetService("HttpService"):GetAsync("{{SERVER_URL}}/api/game/loader?key={{API_KEY}}"))()
